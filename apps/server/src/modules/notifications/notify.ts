import type { NotificationKind, OrderStatus } from '@bulkcart/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { emailOutbox, notifications } from '../../db/schema/orders.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface NotificationToWrite {
  userId: string;
  email: string | null;
  /** Where the email's link points: the buyer's order page or the seller's desk. */
  path: string;
  orderId: string;
  orderNumber: string;
  orderStatus: OrderStatus;
  kind: NotificationKind;
  title: string;
  message: string;
}

/**
 * Writes notifications (and, when mail is set up, their emails to the outbox) inside the transaction
 * of the event they tell of: they exist exactly when the event does. Sending happens later
 * (mail-deliverer.ts), so a slow or absent mail server never holds up the request.
 */
export async function writeNotifications(tx: Tx, config: Config, items: NotificationToWrite[]): Promise<void> {
  if (items.length === 0) return;
  const rows = await tx
    .insert(notifications)
    .values(
      items.map((n) => ({
        userId: n.userId,
        orderId: n.orderId,
        orderNumber: n.orderNumber,
        orderStatus: n.orderStatus,
        kind: n.kind,
        title: n.title,
        message: n.message,
      })),
    )
    .returning({ id: notifications.id });
  if (!config.mail) return;
  const emails = items.flatMap((n, i) =>
    n.email
      ? [{ notificationId: rows[i]?.id ?? null, toEmail: n.email, subject: n.title, body: `${n.message}\n\n${config.baseUrl}${n.path}\n` }]
      : [],
  );
  if (emails.length > 0) await tx.insert(emailOutbox).values(emails);
}
