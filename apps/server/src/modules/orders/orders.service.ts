import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { addressSchema, toCents, type Address, type CreateOrderInput, type Order, type OrderStatus } from '@bulkcart/contracts';
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { preparedQuery, preparedRowLookup, slot } from '../../db/prepared.ts';
import { orders, shipToAddresses, type OrderRow } from '../../db/schema/orders.ts';
import { AppError, forbidden } from '../../lib/app-error.ts';
import { decodeCursor, takePage, type Page } from '../../lib/pagination.ts';
import { isUniqueViolation } from '../../lib/error-causes.ts';
import type { SessionUser } from '../accounts/session.ts';
import { loadOrder, loadOrders } from './order-answer.ts';
import { applyTransition, orderNotFound, wrongStatus } from './order-workflow.ts';
import { buyNow, isRefusalWithKeyUnused, type Destination } from './place-order.ts';

export interface OrdersContext {
  db: Db;
  user: SessionUser;
  config: Config;
  clock: () => Date;
}

const orderIdSchema = z.uuid();

/** A malformed id names no order: the same 404 as an unknown one, never a database error. */
export function parseOrderId(id: string): string {
  const parsed = orderIdSchema.safeParse(id);
  if (!parsed.success) throw orderNotFound();
  return parsed.data.toLowerCase();
}
/**
 * 422, not 409: the IETF Idempotency-Key draft (draft-ietf-httpapi-idempotency-key-header, "Error
 * Scenarios") answers a key reused with a different payload with 422 and keeps 409 for a request still
 * in flight; and our 409s mean "stock", which a client may retry with a smaller quantity, while this
 * one needs a new key. The first order is left as it is.
 */
const keyUsedForAnotherOrder = () =>
  new AppError('VALIDATION', 'This Idempotency-Key was already used for a different order.', { title: 'Idempotency-Key already used' });

/**
 * A named statement: it runs on every refused purchase that carried a key (each sold-out refusal in a
 * rush), and drizzle's unnamed select was planned each time, ~200 µs of PostgreSQL's CPU per refusal
 * at 64 buyers (pg_stat_statements).
 */
const orderByKey = preparedRowLookup(orders, { buyer: orders.buyerId, key: orders.idempotencyKey });

async function findOrderByKey(db: Db, buyerId: string, key: string): Promise<OrderRow | undefined> {
  return orderByKey(db, { buyer: buyerId, key });
}

/**
 * Whether a request is a repeat of the order its key already made (docs/product/rules.md: "the same key gives
 * back the same order"): the same product and quantity. An order whose product was deleted keeps no
 * product id; its quantity is all that is left to compare, and a retry of it must still replay.
 */
function isSamePurchase(row: OrderRow, input: CreateOrderInput): boolean {
  return row.quantity === input.quantity && (row.productId === null || row.productId === input.productId.toLowerCase());
}

/** The first order again for a true repeat; a different purchase under a used key is refused. */
async function replay(ctx: OrdersContext, row: OrderRow, input: CreateOrderInput): Promise<{ order: Order; replayed: true }> {
  if (!isSamePurchase(row, input)) throw keyUsedForAnotherOrder();
  return { order: await loadOrder(ctx.db, row, ctx.clock()), replayed: true };
}

export function assertCanBuy(user: SessionUser): void {
  if (!user.name.trim() || !user.email.trim()) {
    throw forbidden('Your account needs a name and an email address before you can buy.');
  }
}

/** Asked before every Buy Now and checkout that sends no address: prepared once per connection (db/prepared.ts). */
const shipToOf = preparedQuery(
  { address: shipToAddresses.address },
  (list) => sql`SELECT ${list} FROM ${shipToAddresses} WHERE ${shipToAddresses.userId} = ${slot('user')}`,
);

async function savedShipTo(db: Db, userId: string): Promise<Address | null> {
  const [row] = await shipToOf(db, { user: userId });
  return row?.address ?? null;
}

/**
 * The order's destination: the one sent (kept as the buyer's default when they have none, which the
 * write itself checks), else the saved default, else a 422 naming every missing field.
 */
export async function resolveShipTo(ctx: Pick<OrdersContext, 'db' | 'user'>, sent: Address | undefined): Promise<Destination> {
  return destinationOf(sent, sent ? null : await savedShipTo(ctx.db, ctx.user.id));
}

/** The destination from the address sent and the buyer's saved default (read by the caller), as resolveShipTo decides it. */
export function destinationOf(sent: Address | undefined, saved: Address | null): Destination {
  if (sent) return { shipTo: sent, saveShipTo: true };
  if (saved) return { shipTo: saved, saveShipTo: false };
  const fieldErrors: Record<string, string[]> = {};
  const missing = addressSchema.safeParse({});
  for (const issue of missing.success ? [] : missing.error.issues) {
    (fieldErrors[`shipTo.${issue.path.map(String).join('.')}`] ??= []).push(issue.message);
  }
  throw new AppError('VALIDATION', 'Add a ship-to address for this order.', { title: 'Ship-to address needed', fieldErrors });
}

/**
 * POST /api/order. With an idempotency key, a repeat by the same buyer answers the first order, found
 * when the repeat fails: on the unique index of (buyer, key), whether the first committed long ago or is
 * committing now (the repeat's insert waits for it, fails, and its transaction, decrement included,
 * rolls back), or on a refusal the first order no longer meets (stock gone, price changed). The repeat
 * must ask for the same purchase, or it is refused (422) and changes nothing.
 */
export async function createOrder(
  ctx: OrdersContext,
  input: CreateOrderInput & { idempotencyKey: string | null },
): Promise<{ order: Order; replayed: boolean }> {
  assertCanBuy(ctx.user);
  const { idempotencyKey: key, ...purchase } = input;
  try {
    const destination = await resolveShipTo(ctx, purchase.shipTo);
    const line = {
      productId: purchase.productId,
      quantity: purchase.quantity,
      idempotencyKey: key,
      ...(purchase.expectedUnitPrice !== undefined ? { expectedUnitCents: toCents(purchase.expectedUnitPrice) } : {}),
    };
    const placed = await buyNow(ctx.db, ctx.config, ctx.user, line, ctx.config.buyerVerification, destination);
    return { order: placed.answer(ctx.clock()), replayed: false };
  } catch (error) {
    // A refusal decided on a read that found the key unused has no earlier order to answer instead.
    if (key && (isUniqueViolation(error) || (error instanceof AppError && !isRefusalWithKeyUnused(error)))) {
      const existing = await findOrderByKey(ctx.db, ctx.user.id, key);
      if (existing) return replay(ctx, existing, purchase);
    }
    throw error;
  }
}

export interface ListOrdersInput {
  email: string;
  limit: number;
  cursor?: string | undefined;
  /** Only this status; without it, every order but the cancelled ones. */
  status?: OrderStatus | undefined;
}

/**
 * GET /api/orders/{email}: the buyer's orders but the cancelled ones, newest first, one bounded query
 * served by the partial index (buyer_id, seq DESC) WHERE status <> 'cancelled', then the page's lines
 * and timelines by order id. Lines hold snapshots, so an order whose product was deleted still lists.
 */
export async function listOrders(ctx: Pick<OrdersContext, 'db' | 'user' | 'clock'>, input: ListOrdersInput): Promise<Page<Order>> {
  if (input.email.trim().toLowerCase() !== ctx.user.email.toLowerCase()) {
    throw forbidden('You can only see your own orders.');
  }
  const afterSeq = decodeCursor(input.cursor);
  const rows = await ctx.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.buyerId, ctx.user.id),
        input.status ? eq(orders.status, input.status) : ne(orders.status, 'cancelled'),
        afterSeq !== null ? lt(orders.seq, afterSeq) : undefined,
      ),
    )
    // Spelled out: a plain DESC means NULLS FIRST, which the index (seq DESC NULLS LAST) cannot serve.
    .orderBy(sql`${orders.seq} DESC NULLS LAST`)
    .limit(input.limit + 1);
  const page = takePage(rows, input.limit);
  return { items: await loadOrders(ctx.db, page.items, ctx.clock()), nextCursor: page.nextCursor };
}

/** GET /api/order/{id}: the buyer's own order; anyone else's looks unknown. */
export async function getOrder(ctx: OrdersContext, input: { id: string }): Promise<Order> {
  const id = parseOrderId(input.id);
  const [row] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.buyerId, ctx.user.id)));
  if (!row) throw orderNotFound();
  return loadOrder(ctx.db, row, ctx.clock());
}

/** After a buyer's transition matched nothing: unknown (or already cancelled by them) is 404, else 409. */
async function explainBuyerMiss(tx: Tx, user: SessionUser, id: string): Promise<never> {
  const [current] = await tx
    .select({ status: orders.status, reason: orders.reason })
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.buyerId, user.id)));
  if (!current || current.status === 'cancelled') throw orderNotFound();
  throw wrongStatus(current);
}

/**
 * DELETE /api/order/{id}: the buyer cancels while the order is placed; its stock returns in the same
 * transaction, once (docs/decisions/012-order-workflow.md). A cancelled order is gone from the buyer's
 * view (404 again); an accepted one is a 409.
 */
export async function cancelOrder(ctx: OrdersContext, input: { id: string }): Promise<{ _id: string; cancelled: true }> {
  const id = parseOrderId(input.id);
  await ctx.db.transaction(async (tx) => {
    const row = await applyTransition(tx, ctx.config, {
      orderId: id,
      actor: { kind: 'buyer', user: ctx.user },
      from: 'placed',
      to: 'cancelled',
      note: null,
      restock: true,
    });
    if (!row) await explainBuyerMiss(tx, ctx.user, id);
  });
  return { _id: id, cancelled: true };
}

/** POST /api/order/{id}/received: the buyer confirms a shipped order arrived. */
export async function confirmReceived(ctx: OrdersContext, input: { id: string }): Promise<Order> {
  const id = parseOrderId(input.id);
  const row = await ctx.db.transaction(async (tx) => {
    const done = await applyTransition(tx, ctx.config, { orderId: id, actor: { kind: 'buyer', user: ctx.user }, from: 'shipped', to: 'delivered', note: null });
    return done ?? explainBuyerMiss(tx, ctx.user, id);
  });
  return loadOrder(ctx.db, row, ctx.clock());
}

/** GET /api/account/ship-to. */
export async function getShipTo(ctx: Pick<OrdersContext, 'db' | 'user'>): Promise<{ shipTo: Address | null }> {
  return { shipTo: await savedShipTo(ctx.db, ctx.user.id) };
}

/** PUT /api/account/ship-to: saves (or replaces) the buyer's default address. */
export async function putShipTo(ctx: Pick<OrdersContext, 'db' | 'user'>, address: Address): Promise<{ shipTo: Address }> {
  await ctx.db
    .insert(shipToAddresses)
    .values({ userId: ctx.user.id, address })
    .onConflictDoUpdate({ target: shipToAddresses.userId, set: { address, updatedAt: sql`now()` } });
  return { shipTo: address };
}
