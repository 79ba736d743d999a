import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { LIMITS, ORDER_MESSAGES, formatMoney, type OrderNotificationKind, type OrderStatus } from '@bulkcart/contracts';
import type { Config } from '../../config.ts';
import type { Tx } from '../../db/client.ts';
import { user } from '../../db/schema/auth.ts';
import { products } from '../../db/schema/catalog.ts';
import { orderEvents, orderLines, orders, type OrderRow } from '../../db/schema/orders.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { writeNotifications, type NotificationToWrite } from '../notifications/index.ts';
import type { SessionUser } from '../accounts/session.ts';

/** Who acts: the buyer or the seller (from the session), or the sweep. */
export type Actor = { kind: 'buyer'; user: SessionUser } | { kind: 'seller'; user: SessionUser } | { kind: 'system' };

export const orderNotFound = () => notFound('Order not found');

/** A 409 that says what happened to the order, for a transition its status no longer allows. */
export function wrongStatus(current: Pick<OrderRow, 'status' | 'reason'>): AppError {
  const messages: Record<OrderStatus, string> = {
    placed: 'The seller has not accepted this order yet.',
    accepted: ORDER_MESSAGES.alreadyAccepted,
    shipped: 'This order has already shipped.',
    delivered: 'This order has already been delivered.',
    declined: 'The seller has declined this order.',
    cancelled: current.reason ? `This order was cancelled: ${current.reason}.` : 'This order was cancelled.',
  };
  return new AppError('CONFLICT', messages[current.status], { title: 'Order already changed' });
}

/** The orders an actor may act on: a buyer's own, a seller's sales; the system any. */
export function actorScope(actor: Actor): SQL | undefined {
  if (actor.kind === 'buyer') return eq(orders.buyerId, actor.user.id);
  if (actor.kind === 'seller') return eq(orders.sellerId, actor.user.id);
  return undefined;
}

/**
 * Stock after giving back a line's units, held to the cap a seller may set (LIMITS): a cancel always
 * succeeds, and units above the cap are not restored. Summed as bigint so the sum cannot overflow; a
 * stock already above the cap is never lowered by a cancel.
 */
function restoredStock(quantity: number) {
  return sql`greatest(${products.mainquantity}, least(${products.mainquantity}::bigint + ${quantity}, ${LIMITS.quantityMax}::bigint))::int`;
}

/**
 * Returns every line's units to its product (a deleted product has nothing to return to), in
 * product-id order like every multi-row lock (place-order.ts), so a restock and a checkout sharing
 * products queue instead of deadlocking.
 */
async function restock(tx: Tx, orderId: string): Promise<void> {
  const lines = await tx
    .select({ productId: orderLines.productId, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.productId));
  for (const line of lines) {
    if (!line.productId) continue;
    await tx
      .update(products)
      .set({ mainquantity: restoredStock(line.quantity), updatedAt: sql`now()` })
      .where(eq(products.id, line.productId));
  }
}

/** A timeline entry as written: who acted (by name as it was then), from which status to which. */
export function eventRow(orderId: string, actor: Actor, from: OrderStatus | null, to: OrderStatus, note: string | null) {
  return {
    orderId,
    actor: actor.kind,
    actorId: actor.kind === 'system' ? null : actor.user.id,
    actorName: actor.kind === 'system' ? null : actor.user.name,
    fromStatus: from,
    toStatus: to,
    note,
  };
}

export async function recordEvent(tx: Tx, orderId: string, actor: Actor, from: OrderStatus | null, to: OrderStatus, note: string | null): Promise<void> {
  await tx.insert(orderEvents).values(eventRow(orderId, actor, from, to, note));
}

async function sellerEmail(tx: Tx, sellerId: string): Promise<string | null> {
  const [row] = await tx.select({ email: user.email }).from(user).where(eq(user.id, sellerId));
  return row?.email ?? null;
}

type Side = 'buyer' | 'seller';

/** What the words of an event read from its order (an order about to be written has no more). */
export type DescribedOrder = Pick<
  OrderRow,
  'id' | 'number' | 'status' | 'buyerId' | 'buyerEmail' | 'buyerName' | 'sellerId' | 'sellerName' | 'totalCents' | 'shipBy' | 'carrier' | 'tracking' | 'reason'
>;

/** The words of each event; every one names the order number. */
function describe(row: DescribedOrder, kind: OrderNotificationKind, actor: Actor): { title: string; message: string } {
  const n = row.number;
  switch (kind) {
    case 'placed':
      return { title: `New order ${n}`, message: `${row.buyerName} placed order ${n} (${formatMoney(row.totalCents)}). Accept it within 3 business days.` };
    case 'accepted':
      return { title: `Order ${n} accepted`, message: `${row.sellerName} accepted order ${n} and will ship it by ${row.shipBy}.` };
    case 'declined':
      return { title: `Order ${n} declined`, message: `${row.sellerName} declined order ${n}: ${row.reason ?? ''}` };
    case 'shipped': {
      const tracking = [row.carrier, row.tracking].filter(Boolean).join(' ');
      return { title: `Order ${n} shipped`, message: `Order ${n} is on its way${tracking ? ` (${tracking})` : ''}.` };
    }
    case 'delivered':
      return {
        title: `Order ${n} delivered`,
        message: actor.kind === 'buyer' ? `${row.buyerName} confirmed receiving order ${n}.` : `${row.sellerName} marked order ${n} delivered.`,
      };
    case 'cancelled':
      return actor.kind === 'system'
        ? { title: `Order ${n} cancelled`, message: `Order ${n} was cancelled: ${ORDER_MESSAGES.notAcceptedInTime}. Its stock was returned.` }
        : { title: `Order ${n} cancelled`, message: `${row.buyerName} cancelled order ${n}. Its stock was returned.` };
    case 'late':
      return { title: `Order ${n} is late`, message: `Order ${n} was due to ship by ${row.shipBy} and has not shipped.` };
  }
}

/** Who hears of an event: the other side of it, both sides of the system's. */
function sidesTold(actor: Actor): Side[] {
  return actor.kind === 'system' ? ['buyer', 'seller'] : actor.kind === 'buyer' ? ['seller'] : ['buyer'];
}

/** The notifications of an event, given the seller's address (read by the caller, or already known). */
export function eventNotifications(row: DescribedOrder, kind: OrderNotificationKind, actor: Actor, sellerEmail: string | null): NotificationToWrite[] {
  const { title, message } = describe(row, kind, actor);
  const base = { orderId: row.id, orderNumber: row.number, orderStatus: row.status, kind, title, message };
  return sidesTold(actor).flatMap((side): NotificationToWrite[] => {
    if (side === 'buyer') return [{ ...base, userId: row.buyerId, email: row.buyerEmail, path: `/orders/${row.id}` }];
    return row.sellerId ? [{ ...base, userId: row.sellerId, email: sellerEmail, path: '/sales' }] : [];
  });
}

/**
 * Tells the other side of an event (both sides for the system's), in the event's transaction.
 * An order whose seller account is gone tells only its buyer.
 */
export async function notifyEvent(tx: Tx, config: Config, row: OrderRow, kind: OrderNotificationKind, actor: Actor): Promise<void> {
  const toSeller = sidesTold(actor).includes('seller') && row.sellerId !== null;
  const email = toSeller && row.sellerId ? await sellerEmail(tx, row.sellerId) : null;
  await writeNotifications(tx, config, eventNotifications(row, kind, actor, email));
}

export interface Transition {
  orderId: string;
  actor: Actor;
  from: OrderStatus;
  to: OrderStatus;
  /** Columns set with the status (ship-by, carrier, reason …). */
  set?: Partial<Pick<OrderRow, 'shipBy' | 'carrier' | 'tracking' | 'reason'>>;
  note: string | null;
  /** Declined and cancelled orders return their stock, in this transaction. */
  restock?: boolean;
  /** An extra guard, e.g. the sweep's "placed before this instant". */
  where?: SQL;
}

/**
 * One transition as one guarded update: `UPDATE … WHERE id AND (actor's own) AND status = from
 * RETURNING`. Of two people acting at once, the second's update waits for the first's row lock and
 * then finds the status changed, so it matches nothing: exactly one wins, and the stock (restored only
 * after a matched update) goes back at most once. The timeline entry and notifications are written in
 * the same transaction. Returns null when nothing matched.
 */
export async function applyTransition(tx: Tx, config: Config, t: Transition): Promise<OrderRow | null> {
  const [row] = await tx
    .update(orders)
    .set({
      status: t.to,
      ...t.set,
      ...(t.restock ? { cancelledAt: sql`now()` } : {}),
      ...(t.to === 'accepted' ? { acceptedAt: sql`now()` } : t.to === 'shipped' ? { shippedAt: sql`now()` } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(orders.id, t.orderId), actorScope(t.actor), eq(orders.status, t.from), t.where))
    .returning();
  if (!row) return null;
  if (t.restock) await restock(tx, row.id);
  await recordEvent(tx, row.id, t.actor, t.from, t.to, t.note);
  await notifyEvent(tx, config, row, t.to as OrderNotificationKind, t.actor);
  return row;
}
