import { and, count, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import {
  addBusinessDays,
  ORDER_MESSAGES,
  ORDER_STATUSES,
  OPEN_ORDER_STATUSES,
  shipByWindow,
  toIsoDate,
  type AcceptOrderInput,
  type AcceptOrdersAnswer,
  type AcceptOrdersInput,
  type DeclineOrderInput,
  type OrderStatus,
  type Sale,
  type SalesCounts,
  type SalesListQuery,
  type ShipOrderInput,
} from '@bulkcart/contracts';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { products } from '../../db/schema/catalog.ts';
import { orderLines, orders, type OrderRow } from '../../db/schema/orders.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { decodeCursor, takePage, type Page } from '../../lib/pagination.ts';
import { isVerifiedBuyer, verifiedBuyers } from '../business/index.ts';
import { loadOrder, loadOrders } from './order-answer.ts';
import { applyTransition, notifyEvent, orderNotFound, wrongStatus, type Transition } from './order-workflow.ts';
import { parseOrderId, type OrdersContext } from './orders.service.ts';

/** The desk's answers: the orders, each with its buyer's verified badge (one query per page). */
async function loadSales(db: Db, rows: OrderRow[], now: Date): Promise<Sale[]> {
  const [answers, verified] = await Promise.all([
    loadOrders(db, rows, now),
    verifiedBuyers(
      db,
      rows.map((r) => r.buyerId),
    ),
  ]);
  return answers.map((order, i) => ({ ...order, buyerVerified: verified.has(rows[i]?.buyerId ?? '') }));
}

async function loadSale(db: Db, row: OrderRow, now: Date): Promise<Sale> {
  const [order, buyerVerified] = await Promise.all([loadOrder(db, row, now), isVerifiedBuyer(db, row.buyerId)]);
  return { ...order, buyerVerified };
}

/**
 * GET /api/sales: orders of the seller's products, newest first, optionally one status; served by
 * (seller_id, seq DESC) or (seller_id, status, seq DESC).
 */
export async function listSales(ctx: OrdersContext, input: SalesListQuery): Promise<Page<Sale>> {
  const afterSeq = decodeCursor(input.cursor);
  const rows = await ctx.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.sellerId, ctx.user.id),
        input.status ? eq(orders.status, input.status) : undefined,
        input.late ? and(eq(orders.status, 'accepted' satisfies OrderStatus), lt(orders.shipBy, toIsoDate(ctx.clock()))) : undefined,
        afterSeq !== null ? lt(orders.seq, afterSeq) : undefined,
      ),
    )
    .orderBy(sql`${orders.seq} DESC NULLS LAST`)
    .limit(input.limit + 1);
  const page = takePage(rows, input.limit);
  return { items: await loadSales(ctx.db, page.items, ctx.clock()), nextCursor: page.nextCursor };
}

/** GET /api/sales/counts: one grouped read over the seller's index; late ones are counted in the same pass. */
export async function countSales(ctx: OrdersContext): Promise<SalesCounts> {
  const today = toIsoDate(ctx.clock());
  const rows = await ctx.db
    .select({ status: orders.status, count: count(), pastShipBy: sql<number>`count(*) FILTER (WHERE ${orders.shipBy} < ${today})`.mapWith(Number) })
    .from(orders)
    .where(eq(orders.sellerId, ctx.user.id))
    .groupBy(orders.status);
  const counts = { ...Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])), late: 0 } as SalesCounts;
  for (const row of rows) {
    counts[row.status] = Number(row.count);
    if (row.status === 'accepted') counts.late = row.pastShipBy;
  }
  return counts;
}

async function findSale(db: Db | Tx, sellerId: string, id: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.sellerId, sellerId)));
  return row;
}

/** GET /api/sales/{id}: an order of the seller's; anyone else's looks unknown. */
export async function getSale(ctx: OrdersContext, input: { id: string }): Promise<Sale> {
  const row = await findSale(ctx.db, ctx.user.id, parseOrderId(input.id));
  if (!row) throw orderNotFound();
  return loadSale(ctx.db, row, ctx.clock());
}

/** One seller transition in one transaction: the guarded update, or a 404 / 409 that says why not. */
async function sellerTransition(ctx: OrdersContext, id: string, t: Omit<Transition, 'orderId' | 'actor'>): Promise<Sale> {
  const orderId = parseOrderId(id);
  const row = await ctx.db.transaction(async (tx) => {
    const done = await applyTransition(tx, ctx.config, { ...t, orderId, actor: { kind: 'seller', user: ctx.user } });
    if (done) return done;
    const current = await findSale(tx, ctx.user.id, orderId);
    if (!current) throw orderNotFound();
    throw wrongStatus(current);
  });
  return loadSale(ctx.db, row, ctx.clock());
}

function badShipBy(message: string): AppError {
  return new AppError('VALIDATION', message, { fieldErrors: { shipBy: [message] } });
}

/** The seller's promise: today at the earliest, three business days ahead at the latest; two by default. */
export function resolveShipBy(requested: string | undefined, now: Date): string {
  const window = shipByWindow(now);
  if (requested === undefined) return window.default;
  if (requested < window.min) throw badShipBy('The ship-by date cannot be in the past.');
  if (requested > window.max) throw badShipBy(`Ship within 3 business days: ${window.max} at the latest.`);
  return requested;
}

export function acceptSale(ctx: OrdersContext, input: { id: string } & AcceptOrderInput): Promise<Sale> {
  const shipBy = resolveShipBy(input.shipBy, ctx.clock());
  return sellerTransition(ctx, input.id, { from: 'placed', to: 'accepted', set: { shipBy }, note: `Ship by ${shipBy}` });
}

/**
 * POST /api/sales/accept: several placed orders accepted with one ship-by date, in one transaction,
 * each by its own guarded update (so an order the buyer cancelled a moment ago is refused, with why,
 * while the others are accepted). Taken in id order, so two desks accepting overlapping sets lock the
 * rows in the same order.
 */
export async function acceptSales(ctx: OrdersContext, input: AcceptOrdersInput): Promise<AcceptOrdersAnswer> {
  const shipBy = resolveShipBy(input.shipBy, ctx.clock());
  const ids = [...new Set(input.ids.map((id) => id.toLowerCase()))].sort();
  const { accepted, refused } = await ctx.db.transaction(async (tx) => {
    const done: OrderRow[] = [];
    const missed: AcceptOrdersAnswer['refused'] = [];
    for (const orderId of ids) {
      const row = await applyTransition(tx, ctx.config, {
        orderId,
        from: 'placed',
        to: 'accepted',
        set: { shipBy },
        note: `Ship by ${shipBy}`,
        actor: { kind: 'seller', user: ctx.user },
      });
      if (row) {
        done.push(row);
        continue;
      }
      const current = await findSale(tx, ctx.user.id, orderId);
      const why = current ? wrongStatus(current) : orderNotFound();
      missed.push({ _id: orderId, number: current?.number ?? null, title: why.title, message: why.message });
    }
    return { accepted: done, refused: missed };
  });
  return { accepted: await loadSales(ctx.db, accepted, ctx.clock()), refused };
}

export function declineSale(ctx: OrdersContext, input: { id: string } & DeclineOrderInput): Promise<Sale> {
  return sellerTransition(ctx, input.id, { from: 'placed', to: 'declined', set: { reason: input.reason }, note: input.reason, restock: true });
}

export function shipSale(ctx: OrdersContext, input: { id: string } & ShipOrderInput): Promise<Sale> {
  const carrier = input.carrier ?? null;
  const tracking = input.tracking ?? null;
  const note = [carrier, tracking].filter(Boolean).join(' ') || null;
  return sellerTransition(ctx, input.id, { from: 'accepted', to: 'shipped', set: { carrier, tracking }, note });
}

export function deliverSale(ctx: OrdersContext, input: { id: string }): Promise<Sale> {
  return sellerTransition(ctx, input.id, { from: 'shipped', to: 'delivered', note: null });
}

const productIdSchema = z.uuid();

/**
 * GET /api/product/{id}/open-orders: how many placed, accepted or shipped orders hold the product
 * (the delete dialog says so). The owner's only: anyone else gets the same 404 as an unknown product.
 */
export async function countOpenOrders(ctx: Pick<OrdersContext, 'db' | 'user'>, input: { id: string }): Promise<{ count: number }> {
  const parsed = productIdSchema.safeParse(input.id);
  if (!parsed.success) throw notFound('Product not found');
  const productId = parsed.data.toLowerCase();
  const [product] = await ctx.db.select({ ownerId: products.ownerId }).from(products).where(eq(products.id, productId));
  if (!product || product.ownerId !== ctx.user.id) throw notFound('Product not found');
  const [row] = await ctx.db
    .select({ count: sql<number>`count(DISTINCT ${orders.id})` })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(eq(orderLines.productId, productId), inArray(orders.status, [...OPEN_ORDER_STATUSES])));
  return { count: Number(row?.count ?? 0) };
}

/** The instant a placed order runs out of time: three business days after it was placed. */
export function acceptDeadline(placedAt: Date): Date {
  return addBusinessDays(placedAt, 3);
}

const SWEEP_BATCH = 100;

/**
 * One pass of the order sweep (docs/product/rules.md#orders), run by every server process on an
 * interval. Each order is handled by one guarded update, so processes sweeping at once never cancel,
 * restock or notify an order twice: the loser's update waits for the winner's lock, then matches
 * nothing. `now` is the injectable clock.
 *  1. Placed orders three business days old are cancelled "Not accepted in time", stock returned.
 *  2. Accepted orders past their ship-by date are told late, once (late_notified_at).
 */
export async function runOrderSweep(db: Db, config: Config, now: Date): Promise<{ cancelled: number; late: number }> {
  // Three business days are at least three calendar days: that bound finds the candidates by index.
  const oldEnough = new Date(now.getTime() - 3 * 86_400_000);
  const candidates = await db
    .select({ id: orders.id, createdAt: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.status, 'placed'), lte(orders.createdAt, oldEnough)))
    .orderBy(orders.createdAt)
    .limit(SWEEP_BATCH);
  let cancelled = 0;
  for (const candidate of candidates) {
    if (acceptDeadline(candidate.createdAt) > now) continue;
    const row = await db.transaction((tx) =>
      applyTransition(tx, config, {
        orderId: candidate.id,
        actor: { kind: 'system' },
        from: 'placed',
        to: 'cancelled',
        set: { reason: ORDER_MESSAGES.notAcceptedInTime },
        note: ORDER_MESSAGES.notAcceptedInTime,
        restock: true,
      }),
    );
    if (row) cancelled += 1;
  }
  const today = toIsoDate(now);
  const lateCandidates = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'accepted'), isNull(orders.lateNotifiedAt), lt(orders.shipBy, today)))
    .limit(SWEEP_BATCH);
  let late = 0;
  for (const candidate of lateCandidates) {
    const row = await db.transaction(async (tx) => {
      const [flagged] = await tx
        .update(orders)
        .set({ lateNotifiedAt: now, updatedAt: sql`now()` })
        .where(and(eq(orders.id, candidate.id), eq(orders.status, 'accepted' satisfies OrderStatus), isNull(orders.lateNotifiedAt), lt(orders.shipBy, today)))
        .returning();
      if (flagged) await notifyEvent(tx, config, flagged, 'late', { kind: 'system' });
      return flagged;
    });
    if (row) late += 1;
  }
  return { cancelled, late };
}
