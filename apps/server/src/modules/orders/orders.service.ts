import { and, eq, gte, isNotNull, lt, lte, ne, or, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  addressSchema,
  MESSAGES,
  ORDER_MESSAGES,
  quotePrice,
  toCents,
  toDollars,
  type Address,
  type CreateOrderInput,
  type Order,
  type OrderStatus,
  VERIFY_TEXT,
} from '@bulkcart/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { user as users } from '../../db/schema/auth.ts';
import { orderLines, orders, shipToAddresses, type OrderRow } from '../../db/schema/orders.ts';
import { products } from '../../db/schema/catalog.ts';
import { AppError, forbidden, notFound } from '../../lib/app-error.ts';
import { decodeCursor, takePage, type Page } from '../../lib/pagination.ts';
import { isUniqueViolation } from '../../lib/error-causes.ts';
import type { SessionUser } from '../accounts/session.ts';
import { loadOrder, loadOrders } from './order-answer.ts';
import { applyTransition, notifyEvent, orderNotFound, recordEvent, wrongStatus, type Tx } from './order-workflow.ts';
import { buyerPricing } from '../business/buyer-status.ts';

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
const productNotFound = () => notFound('Product not found');
const belowMoq = (minquantity: number) => new AppError('BELOW_MOQ', MESSAGES.moqText(minquantity), { title: MESSAGES.moqTitle });
const outOfStock = (mainquantity: number) => new AppError('OUT_OF_STOCK', MESSAGES.stockText(mainquantity), { title: MESSAGES.stockTitle });
const notWholeCases = (casepack: number) => {
  const message = `This product is sold in cases of ${casepack}: order a multiple of ${casepack} units.`;
  return new AppError('VALIDATION', message, { title: 'Whole cases only', fieldErrors: { quantity: [message] } });
};
const totalTooLarge = () =>
  new AppError('VALIDATION', 'This order is too large to price; split it into smaller orders.', { fieldErrors: { quantity: ['Quantity is too large'] } });
const unpriced = () => new AppError('CONFLICT', 'This product has no price yet, so it cannot be bought.', { title: MESSAGES.errorTitle });
const priceChanged = (nowCents: number, sawCents: number) =>
  new AppError('PRICE_CHANGED', ORDER_MESSAGES.priceChanged(nowCents, sawCents), { title: ORDER_MESSAGES.priceChangedTitle, unitPrice: toDollars(nowCents) });
/**
 * 422, not 409: the IETF Idempotency-Key draft (draft-ietf-httpapi-idempotency-key-header, "Error
 * Scenarios") answers a key reused with a different payload with 422 and keeps 409 for a request still
 * in flight; and our 409s mean "stock", which a client may retry with a smaller quantity, while this
 * one needs a new key. The first order is left as it is.
 */
const keyUsedForAnotherOrder = () =>
  new AppError('VALIDATION', 'This Idempotency-Key was already used for a different order.', { title: 'Idempotency-Key already used' });

async function findOrderByKey(db: Db, buyerId: string, key: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.buyerId, buyerId), eq(orders.idempotencyKey, key)))
    .limit(1);
  return row;
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

const ownProduct = () => forbidden(ORDER_MESSAGES.ownProduct);

function assertCanBuy(user: SessionUser): void {
  if (!user.name.trim() || !user.email.trim()) {
    throw forbidden('Your account needs a name and an email address before you can buy.');
  }
}

/**
 * After the guarded decrement matched nothing, one read of the current row tells the buyer why, in
 * the order a buyer fixes things: gone, too few, not for sale, not whole cases, then not enough stock.
 */
async function explainRefusal(tx: Tx, user: SessionUser, input: CreateOrderInput): Promise<never> {
  const [current] = await tx
    .select({ minquantity: products.minquantity, priceCents: products.priceCents, casepack: products.casepack, mainquantity: products.mainquantity, ownerId: products.ownerId })
    .from(products)
    .where(eq(products.id, input.productId));
  if (!current) throw productNotFound();
  if (current.ownerId === user.id) throw ownProduct();
  if (input.quantity < current.minquantity) throw belowMoq(current.minquantity);
  if (current.priceCents === null) throw unpriced();
  if (input.quantity % current.casepack !== 0) throw notWholeCases(current.casepack);
  throw outOfStock(current.mainquantity);
}

/**
 * The whole purchase in one transaction, reading the product once: every rule is a guard of the one
 * decrement, which locks the row, so a concurrent buyer or a seller's edit waits for it and the
 * guards are re-checked on the row it finds. Stock can never be oversold or go below 0, and the price
 * is computed from the same locked row as the snapshot: the old ladder or the new, never a mix.
 */
async function purchaseInTransaction(
  tx: Tx,
  config: Config,
  user: SessionUser,
  input: CreateOrderInput & { shipTo: Address; saveShipTo: boolean },
  idempotencyKey: string | null,
): Promise<OrderRow> {
  // The buyer's status as this transaction reads it: the price is decided with it, not with a page's.
  const buyer = await buyerPricing(tx, config.buyerVerification, user.id);
  if (!buyer.canOrder) throw forbidden(VERIFY_TEXT.required, { title: VERIFY_TEXT.requiredTitle });
  const [taken] = await tx
    .update(products)
    .set({ mainquantity: sql`${products.mainquantity} - ${input.quantity}`, updatedAt: sql`now()` })
    .where(
      and(
        eq(products.id, input.productId),
        gte(products.mainquantity, input.quantity),
        lte(products.minquantity, input.quantity),
        isNotNull(products.priceCents),
        sql`${input.quantity}::integer % ${products.casepack} = 0`,
        // A seller cannot buy their own product.
        or(isNull(products.ownerId), ne(products.ownerId, user.id)),
      ),
    )
    .returning({
      name: products.name,
      image: products.image,
      brandname: products.brandname,
      category: products.category,
      minquantity: products.minquantity,
      priceCents: products.priceCents,
      discount: products.discount,
      priceBreaks: products.priceBreaks,
      ownerId: products.ownerId,
      ownerEmail: products.ownerEmail,
    });
  if (!taken) return explainRefusal(tx, user, input);
  // The guard above refused a null price; the type cannot know it.
  if (taken.priceCents === null) throw unpriced();

  const quote = quotePrice({ priceCents: taken.priceCents, discount: taken.discount, tiers: taken.priceBreaks }, input.quantity, { breaksApply: buyer.breaksApply });
  // The buyer agreed to the price they saw, not to this one: the throw rolls the decrement back.
  if (input.expectedUnitPrice !== undefined && toCents(input.expectedUnitPrice) !== quote.unitCents) {
    throw priceChanged(quote.unitCents, toCents(input.expectedUnitPrice));
  }
  if (!Number.isSafeInteger(quote.totalCents)) throw totalTooLarge();
  const seller = taken.ownerId
    ? (await tx.select({ name: users.name }).from(users).where(eq(users.id, taken.ownerId)))[0]
    : undefined;
  const line = {
    productId: input.productId,
    quantity: input.quantity,
    unitPriceCents: quote.unitCents,
    lineTotalCents: quote.totalCents,
    listUnitPriceCents: quote.listUnitCents,
    tierMinquantity: quote.tierMinquantity,
    productName: taken.name,
    productImage: taken.image,
    productBrand: taken.brandname,
    productCategory: taken.category,
    productMinquantity: taken.minquantity,
  };
  const [row] = await tx
    .insert(orders)
    .values({
      buyerId: user.id,
      buyerEmail: user.email,
      buyerName: user.name,
      sellerId: taken.ownerId,
      sellerName: seller?.name ?? taken.ownerEmail,
      totalCents: quote.totalCents,
      shipTo: input.shipTo,
      ...line,
      idempotencyKey,
    })
    .returning();
  if (!row) throw new Error('order insert returned no row');
  await tx.insert(orderLines).values({ orderId: row.id, position: 1, ...line });
  if (input.saveShipTo) await tx.insert(shipToAddresses).values({ userId: user.id, address: input.shipTo }).onConflictDoNothing();
  await recordEvent(tx, row.id, { kind: 'buyer', user }, null, 'placed', null);
  await notifyEvent(tx, config, row, 'placed', { kind: 'buyer', user });
  return row;
}

async function savedShipTo(db: Db, userId: string): Promise<Address | null> {
  const [row] = await db.select({ address: shipToAddresses.address }).from(shipToAddresses).where(eq(shipToAddresses.userId, userId));
  return row?.address ?? null;
}

/** The order's destination: the one sent, else the saved default, else a 422 naming every missing field. */
async function resolveShipTo(ctx: OrdersContext, sent: Address | undefined): Promise<{ shipTo: Address; saveShipTo: boolean }> {
  const saved = await savedShipTo(ctx.db, ctx.user.id);
  if (sent) return { shipTo: sent, saveShipTo: saved === null };
  if (saved) return { shipTo: saved, saveShipTo: false };
  const fieldErrors: Record<string, string[]> = {};
  const missing = addressSchema.safeParse({});
  for (const issue of missing.success ? [] : missing.error.issues) {
    (fieldErrors[`shipTo.${issue.path.map(String).join('.')}`] ??= []).push(issue.message);
  }
  throw new AppError('VALIDATION', 'Add a ship-to address for this order.', { title: 'Ship-to address needed', fieldErrors });
}

/**
 * POST /api/order. With an idempotency key, a repeat by the same buyer answers the first order: found
 * up front when the first one has committed, or, when both run at once, through the unique index:
 * the second insert waits for the first, fails, and its transaction (decrement included) rolls back.
 * Either way the repeat must ask for the same purchase, or it is refused (422) and changes nothing.
 */
export async function createOrder(
  ctx: OrdersContext,
  input: CreateOrderInput & { idempotencyKey: string | null },
): Promise<{ order: Order; replayed: boolean }> {
  assertCanBuy(ctx.user);
  const { idempotencyKey: key, ...purchase } = input;
  if (key) {
    const existing = await findOrderByKey(ctx.db, ctx.user.id, key);
    if (existing) return replay(ctx, existing, purchase);
  }
  const destination = await resolveShipTo(ctx, purchase.shipTo);
  try {
    const row = await ctx.db.transaction((tx) => purchaseInTransaction(tx, ctx.config, ctx.user, { ...purchase, ...destination }, key));
    return { order: await loadOrder(ctx.db, row, ctx.clock()), replayed: false };
  } catch (error) {
    // A concurrent twin may have taken the last stock (409) or won the key: then this is its repeat, or a
    // different purchase under its key, which replay() tells apart.
    if (key && (isUniqueViolation(error) || error instanceof AppError)) {
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
    .where(and(eq(orders.buyerId, ctx.user.id), input.status ? eq(orders.status, input.status) : ne(orders.status, 'cancelled'), afterSeq !== null ? lt(orders.seq, afterSeq) : undefined))
    // Spelled out: a plain DESC means NULLS FIRST, which the index (seq DESC NULLS LAST) cannot serve.
    .orderBy(sql`${orders.seq} DESC NULLS LAST`)
    .limit(input.limit + 1);
  const page = takePage(rows, input.limit);
  return { items: await loadOrders(ctx.db, page.items, ctx.clock()), nextCursor: page.nextCursor };
}

/** GET /api/order/{id}: the buyer's own order; anyone else's looks unknown. */
export async function getOrder(ctx: OrdersContext, input: { id: string }): Promise<Order> {
  const id = parseOrderId(input.id);
  const [row] = await ctx.db.select().from(orders).where(and(eq(orders.id, id), eq(orders.buyerId, ctx.user.id)));
  if (!row) throw orderNotFound();
  return loadOrder(ctx.db, row, ctx.clock());
}

/** After a buyer's transition matched nothing: unknown (or already cancelled by them) is 404, else 409. */
async function explainBuyerMiss(tx: Tx, user: SessionUser, id: string): Promise<never> {
  const [current] = await tx.select({ status: orders.status, reason: orders.reason }).from(orders).where(and(eq(orders.id, id), eq(orders.buyerId, user.id)));
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
    const row = await applyTransition(tx, ctx.config, { orderId: id, actor: { kind: 'buyer', user: ctx.user }, from: 'placed', to: 'cancelled', note: null, restock: true });
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
