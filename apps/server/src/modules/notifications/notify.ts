import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { NotificationKind, OrderStatus } from '@bulkcart/contracts';
import { paths } from '@bulkcart/contracts/routes';
import type { Config } from '../../config.ts';
import type { Tx } from '../../db/client.ts';
import { user } from '../../db/schema/auth.ts';
import { emailOutbox, notifications } from '../../db/schema/orders.ts';
import type { Notify } from '../business/index.ts';

export interface NotificationToWrite {
  userId: string;
  email: string | null;
  /** Where the email's link points: the buyer's order page, the seller's desk or the business profile. */
  path: string;
  /** The order told of; all three null for a notice about the account (business verification). */
  orderId: string | null;
  orderNumber: string | null;
  orderStatus: OrderStatus | null;
  kind: NotificationKind;
  title: string;
  message: string;
}

/**
 * The rows of some notifications and, when mail is set up, their emails: ids chosen here, so both can
 * be written by one statement (orders/place-order.ts writes them with the order that they tell of).
 */
export function notificationRows(config: Config, items: NotificationToWrite[]) {
  const rows = items.map((n) => ({
    id: randomUUID(),
    userId: n.userId,
    orderId: n.orderId,
    orderNumber: n.orderNumber,
    orderStatus: n.orderStatus,
    kind: n.kind,
    title: n.title,
    message: n.message,
  }));
  const emails = config.mail
    ? items.flatMap((n, i) =>
        n.email ? [{ notificationId: rows[i]?.id ?? null, toEmail: n.email, subject: n.title, body: `${n.message}\n\n${config.baseUrl}${n.path}\n` }] : [],
      )
    : [];
  return { notifications: rows, emails };
}

/**
 * Writes notifications (and, when mail is set up, their emails to the outbox) inside the transaction
 * of the event they tell of: they exist exactly when the event does. Sending happens later
 * (mail-deliverer.ts), so a slow or absent mail server never holds up the request.
 */
export async function writeNotifications(tx: Tx, config: Config, items: NotificationToWrite[]): Promise<void> {
  if (items.length === 0) return;
  const { notifications: rows, emails } = notificationRows(config, items);
  await tx.insert(notifications).values(rows);
  if (emails.length > 0) await tx.insert(emailOutbox).values(emails);
}

/**
 * The expiry sweep's notices (decision 014): a notification without an order, and its email linking to
 * the business profile, written in the sweep's transaction so it exists exactly when the claim does.
 */
export function verificationNotifier(config: Config): Notify {
  return async (userId, notice, tx) => {
    const [owner] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
    if (!owner) return;
    await writeNotifications(tx, config, [
      {
        userId,
        email: owner.email,
        path: paths.business,
        orderId: null,
        orderNumber: null,
        orderStatus: null,
        kind: notice.kind,
        title: notice.title,
        message: notice.body,
      },
    ]);
  };
}
