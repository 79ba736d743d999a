import type { Tx } from '../../db/client.ts';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { CART_LIMITS, CART_TEXT, type CartAddResult, type CreateListInput, type SavedList } from '@bulkcart/contracts';
import { orderListLines, orderLists, type OrderListLineRow, type OrderListRow } from '../../db/schema/cart.ts';
import { orderLines, orders } from '../../db/schema/orders.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { buyerPricing } from '../business/index.ts';
import { orderNotFound, parseOrderId } from '../orders/index.ts';
import { priceCart, toCartLine, type StoredLine } from './cart-pricing.ts';
import { lockCart, selectBuyableProductsAndSellers } from './cart.queries.ts';
import { addRows, parseProductId, productNotFound, refusalFor, type CartContext } from './cart.service.ts';

/**
 * A buyer's saved lists (docs/decisions/017-cart-and-checkout.md): private to their owner (anyone
 * else's is a 404, like an unknown one), written under the owner's cart lock so the bounds hold.
 */

const listNotFound = () => notFound('List not found');

function parseListId(id: string): string {
  try {
    return parseProductId(id);
  } catch {
    throw listNotFound();
  }
}

function toStored(line: OrderListLineRow): StoredLine {
  return {
    productId: line.productId,
    quantity: line.quantity,
    seenUnitCents: null,
    productName: line.productName,
    productImage: line.productImage,
    productSku: line.productSku,
    sellerId: null,
    sellerName: line.sellerName,
  };
}

/** Lists with their lines priced as the cart would price them now: products and sellers read once for all. */
async function toAnswers(ctx: CartContext, lists: OrderListRow[]): Promise<SavedList[]> {
  if (lists.length === 0) return [];
  const lines = await ctx.db
    .select()
    .from(orderListLines)
    .where(
      inArray(
        orderListLines.listId,
        lists.map((l) => l.id),
      ),
    )
    .orderBy(asc(orderListLines.listId), asc(orderListLines.seq))
    .limit(CART_LIMITS.lists * CART_LIMITS.lines);
  const buyer = await buyerPricing(ctx.db, ctx.config.buyerVerification, ctx.user.id);
  const { products, sellers } = await selectBuyableProductsAndSellers(
    ctx.db,
    lines.map((l) => l.productId),
  );
  return lists.map((list) => {
    const stored = lines.filter((l) => l.listId === list.id).map(toStored);
    const priced = priceCart({ lines: stored, products, sellers, buyerId: ctx.user.id, breaksApply: buyer.breaksApply });
    return { id: list.id, name: list.name, lines: priced.lines.map(toCartLine), createdAt: list.createdAt.toISOString() };
  });
}

async function ownList(db: CartContext['db'] | Tx, ownerId: string, id: string): Promise<OrderListRow> {
  const [row] = await db
    .select()
    .from(orderLists)
    .where(and(eq(orderLists.id, parseListId(id)), eq(orderLists.ownerId, ownerId)));
  if (!row) throw listNotFound();
  return row;
}

/** GET /api/lists: every list of the buyer (at most CART_LIMITS.lists), oldest first. */
export async function listLists(ctx: CartContext): Promise<SavedList[]> {
  const lists = await ctx.db.select().from(orderLists).where(eq(orderLists.ownerId, ctx.user.id)).orderBy(asc(orderLists.seq)).limit(CART_LIMITS.lists);
  return toAnswers(ctx, lists);
}

/** GET /api/lists/{id}. */
export async function getList(ctx: CartContext, input: { id: string }): Promise<SavedList> {
  const [answer] = await toAnswers(ctx, [await ownList(ctx.db, ctx.user.id, input.id)]);
  if (!answer) throw listNotFound();
  return answer;
}

/** A line's columns for `quantity` of a product the buyer may put in a list (Buy Now's rules but stock). */
async function checkedLine(tx: Tx, ctx: CartContext, listId: string, productId: string, quantity: number) {
  const { products, sellers } = await selectBuyableProductsAndSellers(tx, [productId]);
  const product = products.get(productId);
  if (!product) throw productNotFound();
  const refusal = refusalFor(product, ctx.user.id, quantity, false);
  if (refusal) throw refusal;
  return {
    listId,
    productId: product.id,
    productName: product.name,
    productImage: product.image,
    productSku: product.sku,
    sellerName: (product.ownerId ? sellers.get(product.ownerId)?.name : undefined) ?? product.ownerEmail,
    quantity,
  };
}

/** POST /api/lists: a new list, at most CART_LIMITS.lists of them. */
export async function createList(ctx: CartContext, input: CreateListInput): Promise<SavedList> {
  const row = await ctx.db.transaction(async (tx) => {
    await lockCart(tx, ctx.user.id);
    const [held] = await tx.select({ n: count() }).from(orderLists).where(eq(orderLists.ownerId, ctx.user.id));
    if ((held?.n ?? 0) >= CART_LIMITS.lists) throw new AppError('VALIDATION', CART_TEXT.tooManyLists, { title: 'Too many lists' });
    const [list] = await tx.insert(orderLists).values({ ownerId: ctx.user.id, name: input.name }).returning();
    if (!list) throw new Error('list insert returned no row');
    const seen = new Set<string>();
    for (const line of input.lines ?? []) {
      const productId = parseProductId(line.productId);
      if (seen.has(productId)) continue;
      seen.add(productId);
      await tx.insert(orderListLines).values(await checkedLine(tx, ctx, list.id, productId, line.quantity));
    }
    return list;
  });
  return getList(ctx, { id: row.id });
}

/** PUT /api/lists/{id}/lines/{productId}: sets a line (0 removes it). */
export async function setListLine(ctx: CartContext, input: { id: string; productId: string; quantity: number }): Promise<SavedList> {
  const productId = parseProductId(input.productId);
  await ctx.db.transaction(async (tx) => {
    await lockCart(tx, ctx.user.id);
    const list = await ownList(tx, ctx.user.id, input.id);
    const where = and(eq(orderListLines.listId, list.id), eq(orderListLines.productId, productId));
    if (input.quantity === 0) {
      await tx.delete(orderListLines).where(where);
      return;
    }
    const values = await checkedLine(tx, ctx, list.id, productId, input.quantity);
    const [existing] = await tx.select({ id: orderListLines.id }).from(orderListLines).where(where);
    if (existing) {
      await tx
        .update(orderListLines)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(orderListLines.id, existing.id));
      return;
    }
    const [held] = await tx.select({ n: count() }).from(orderListLines).where(eq(orderListLines.listId, list.id));
    if ((held?.n ?? 0) >= CART_LIMITS.lines) throw new AppError('VALIDATION', CART_TEXT.listFull, { title: 'List full' });
    await tx.insert(orderListLines).values(values);
  });
  return getList(ctx, { id: input.id });
}

/** DELETE /api/lists/{id}/lines/{productId}: a line not in the list is a 404. */
export async function removeListLine(ctx: CartContext, input: { id: string; productId: string }): Promise<SavedList> {
  const productId = parseProductId(input.productId);
  const removed = await ctx.db.transaction(async (tx) => {
    await lockCart(tx, ctx.user.id);
    const list = await ownList(tx, ctx.user.id, input.id);
    return tx
      .delete(orderListLines)
      .where(and(eq(orderListLines.listId, list.id), eq(orderListLines.productId, productId)))
      .returning({ id: orderListLines.id });
  });
  if (removed.length === 0) throw notFound('This product is not in the list.');
  return getList(ctx, { id: input.id });
}

/** DELETE /api/lists/{id}. */
export async function deleteList(ctx: CartContext, input: { id: string }): Promise<{ id: string; deleted: true }> {
  const id = parseListId(input.id);
  const removed = await ctx.db
    .delete(orderLists)
    .where(and(eq(orderLists.id, id), eq(orderLists.ownerId, ctx.user.id)))
    .returning({ id: orderLists.id });
  if (removed.length === 0) throw listNotFound();
  return { id, deleted: true };
}

/** POST /api/lists/{id}/to-cart: every line added to the cart, each answered (row = the line's place in the list). */
export async function listToCart(ctx: CartContext, input: { id: string }): Promise<{ results: CartAddResult[] }> {
  const list = await ownList(ctx.db, ctx.user.id, input.id);
  const lines = await ctx.db.select().from(orderListLines).where(eq(orderListLines.listId, list.id)).orderBy(asc(orderListLines.seq)).limit(CART_LIMITS.lines);
  if (lines.length === 0) throw new AppError('VALIDATION', 'This list is empty.', { title: 'Nothing to add' });
  return {
    results: await addRows(
      ctx,
      lines.map((line, i) => ({ row: i + 1, productId: line.productId, quantity: line.quantity, sku: line.productSku ?? undefined })),
    ),
  };
}

/**
 * POST /api/order/{id}/reorder: the order's lines added to the cart at today's prices, each answered
 * (row = the line's position); a product deleted since says so. Anyone else's order is a 404.
 */
export async function reorder(ctx: CartContext, input: { id: string }): Promise<{ results: CartAddResult[] }> {
  const orderId = parseOrderId(input.id);
  const [order] = await ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.buyerId, ctx.user.id)));
  if (!order) throw orderNotFound();
  const lines = await ctx.db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.position)).limit(CART_LIMITS.rows);
  const rows = lines.map((line) => ({
    row: line.position,
    productId: line.productId,
    quantity: line.quantity,
    sku: line.productSku ?? undefined,
    error: line.productId ? undefined : CART_TEXT.noLongerSold,
  }));
  return { results: await addRows(ctx, rows) };
}
