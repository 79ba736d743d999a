import { and, eq, gte, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { LIMITS, MESSAGES, quotePrice, toDollars, VERIFY_TEXT, type CreateOrderInput, type Order, type VerificationMode } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { orders, type OrderRow } from '../../db/schema/orders.ts';
import { products } from '../../db/schema/catalog.ts';
import { AppError, forbidden, notFound } from '../../lib/app-error.ts';
import { decodeCursor, takePage, type Page } from '../../lib/pagination.ts';
import { isUniqueViolation } from '../../lib/error-causes.ts';
import type { SessionUser } from '../accounts/session.ts';
import { buyerPricing } from '../business/buyer-status.ts';

export interface OrdersContext {
  db: Db;
  user: SessionUser;
  /** BUYER_VERIFICATION (docs/decisions/014-business-verification.md); tiers when not given. */
  buyerVerification?: VerificationMode;
}

const orderIdSchema = z.uuid();

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const orderNotFound = () => notFound('Order not found');
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
/**
 * 422, not 409: the IETF Idempotency-Key draft (draft-ietf-httpapi-idempotency-key-header, "Error
 * Scenarios") answers a key reused with a different payload with 422 and keeps 409 for a request still
 * in flight; and our 409s mean "stock", which a client may retry with a smaller quantity, while this
 * one needs a new key. The first order is left as it is.
 */
const keyUsedForAnotherOrder = () =>
  new AppError('VALIDATION', 'This Idempotency-Key was already used for a different order.', { title: 'Idempotency-Key already used' });

/** The spec's `data`: a locale date string (US style, UTC, so every server answers the same). */
// One formatter for all: toLocaleDateString builds a new one per call (~60 µs, per the benchmark).
const orderDateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' });
function formatOrderDate(date: Date): string {
  return orderDateFormat.format(date);
}

export function toOrder(row: OrderRow): Order {
  return {
    _id: row.id,
    productId: row.productId,
    quantity: row.quantity,
    data: formatOrderDate(row.createdAt),
    createdAt: row.createdAt.toISOString(),
    unitPrice: toDollars(row.unitPriceCents),
    total: toDollars(row.lineTotalCents),
    listUnitPrice: toDollars(row.listUnitPriceCents),
    tierMinquantity: row.tierMinquantity,
    product: {
      name: row.productName,
      image: row.productImage,
      brandname: row.productBrand,
      category: row.productCategory,
      minquantity: row.productMinquantity,
    },
  };
}

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
function replay(row: OrderRow, input: CreateOrderInput): { order: Order; replayed: true } {
  if (!isSamePurchase(row, input)) throw keyUsedForAnotherOrder();
  return { order: toOrder(row), replayed: true };
}

function assertCanBuy(user: SessionUser): void {
  if (!user.name.trim() || !user.email.trim()) {
    throw forbidden('Your account needs a name and an email address before you can buy.');
  }
}

/**
 * After the guarded decrement matched nothing, one read of the current row tells the buyer why, in
 * the order a buyer fixes things: gone, too few, not for sale, not whole cases, then not enough stock.
 */
async function explainRefusal(tx: Tx, input: CreateOrderInput): Promise<never> {
  const [current] = await tx
    .select({ minquantity: products.minquantity, priceCents: products.priceCents, casepack: products.casepack, mainquantity: products.mainquantity })
    .from(products)
    .where(eq(products.id, input.productId));
  if (!current) throw productNotFound();
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
async function purchaseInTransaction(tx: Tx, user: SessionUser, input: CreateOrderInput, idempotencyKey: string | null, mode: VerificationMode): Promise<OrderRow> {
  // The buyer's status as this transaction reads it: the price is decided with it, not with a page's.
  const buyer = await buyerPricing(tx, mode, user.id);
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
    });
  if (!taken) return explainRefusal(tx, input);
  // The guard above refused a null price; the type cannot know it.
  if (taken.priceCents === null) throw unpriced();

  const quote = quotePrice({ priceCents: taken.priceCents, discount: taken.discount, tiers: taken.priceBreaks }, input.quantity, { breaksApply: buyer.breaksApply });
  if (!Number.isSafeInteger(quote.totalCents)) throw totalTooLarge();
  const [row] = await tx
    .insert(orders)
    .values({
      buyerId: user.id,
      buyerEmail: user.email,
      buyerName: user.name,
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
      idempotencyKey,
    })
    .returning();
  if (!row) throw new Error('order insert returned no row');
  return row;
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
    if (existing) return replay(existing, purchase);
  }
  try {
    const row = await ctx.db.transaction((tx) => purchaseInTransaction(tx, ctx.user, purchase, key, ctx.buyerVerification ?? 'tiers'));
    return { order: toOrder(row), replayed: false };
  } catch (error) {
    // A concurrent twin may have taken the last stock (409) or won the key: then this is its repeat, or a
    // different purchase under its key, which replay() tells apart.
    if (key && (isUniqueViolation(error) || error instanceof AppError)) {
      const existing = await findOrderByKey(ctx.db, ctx.user.id, key);
      if (existing) return replay(existing, purchase);
    }
    throw error;
  }
}

export interface ListOrdersInput {
  email: string;
  limit: number;
  cursor?: string;
}

/**
 * GET /api/orders/{email}: the buyer's live orders, newest first, one bounded query served by the
 * partial index (buyer_id, seq DESC) WHERE cancelled_at IS NULL. The snapshot is in the row, so no
 * join, and an order whose product was deleted still lists.
 */
export async function listOrders(ctx: OrdersContext, input: ListOrdersInput): Promise<Page<Order>> {
  if (input.email.trim().toLowerCase() !== ctx.user.email.toLowerCase()) {
    throw forbidden('You can only see your own orders.');
  }
  const afterSeq = decodeCursor(input.cursor);
  const rows = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.buyerId, ctx.user.id), isNull(orders.cancelledAt), afterSeq !== null ? lt(orders.seq, afterSeq) : undefined))
    // Spelled out: a plain DESC means NULLS FIRST, which the index (seq DESC NULLS LAST) cannot serve.
    .orderBy(sql`${orders.seq} DESC NULLS LAST`)
    .limit(input.limit + 1);
  const page = takePage(rows, input.limit);
  return { items: page.items.map(toOrder), nextCursor: page.nextCursor };
}

/**
 * Stock after giving back a cancelled order's units, held to the cap a seller may set (LIMITS): a
 * cancel always succeeds, and units above the cap are not restored (the seller already holds the most
 * stock there may be). Summed as bigint so the sum itself cannot overflow; a stock already above the
 * cap (set before the cap existed) is never lowered by a cancel.
 */
function restoredStock(quantity: number) {
  return sql`greatest(${products.mainquantity}, least(${products.mainquantity}::bigint + ${quantity}, ${LIMITS.quantityMax}::bigint))::int`;
}

/**
 * DELETE /api/order/{id}: a soft cancel. The guarded update matches only the buyer's own live order,
 * so a second (or concurrent) cancel matches nothing and restores nothing; another buyer's order
 * looks exactly like an unknown one.
 */
export async function cancelOrder(ctx: OrdersContext, input: { id: string }): Promise<{ _id: string; cancelled: true }> {
  // A malformed id names no order: the same 404 as an unknown one, never a database error.
  const parsed = orderIdSchema.safeParse(input.id);
  if (!parsed.success) throw orderNotFound();
  const id = parsed.data.toLowerCase();
  await ctx.db.transaction(async (tx) => {
    const [cancelled] = await tx
      .update(orders)
      .set({ cancelledAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(orders.id, id), eq(orders.buyerId, ctx.user.id), isNull(orders.cancelledAt)))
      .returning({ productId: orders.productId, quantity: orders.quantity });
    if (!cancelled) throw orderNotFound();
    if (cancelled.productId) {
      await tx
        .update(products)
        .set({ mainquantity: restoredStock(cancelled.quantity), updatedAt: sql`now()` })
        .where(eq(products.id, cancelled.productId));
    }
  });
  return { _id: id, cancelled: true };
}
