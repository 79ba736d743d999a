import { and, asc, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import {
  CART_LIMITS,
  CART_TEXT,
  productIdSchema,
  quotePrice,
  SKU_MATCHES_MAX,
  skuSchema,
  splitPastedRows,
  toDollars,
  VERIFY_TEXT,
  type AddCartLinesInput,
  type Cart,
  type CartAddResult,
  type SkuCandidate,
  type SkuMatch,
} from '@bulkcart/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { cartLines } from '../../db/schema/cart.ts';
import { isListed, products } from '../../db/schema/catalog.ts';
import { AppError, forbidden, notFound } from '../../lib/app-error.ts';
import type { SessionUser } from '../accounts/session.ts';
import { buyerPricing } from '../business/index.ts';
import type { Tx } from '../../db/client.ts';
import { belowMoq, largestBuyable, notWholeCases, outOfStock, ownProduct, unpriced } from '../orders/index.ts';
import { priceCart, toCart, type BuyableProduct, type PricedCart, type SellerInfo, type StoredLine } from './cart-pricing.ts';
import { lockCart, selectBuyableProductsAndSellers, selectCartLines, selectProductsBySku, selectSellers } from './cart.queries.ts';

export interface CartContext {
  db: Db;
  user: SessionUser;
  config: Config;
}

type Reader = Db | Tx;

export const productNotFound = () => notFound('This product does not exist (it may have been deleted).');

/** A malformed id names no product: the same 404 as an unknown one. */
export function parseProductId(id: string): string {
  const parsed = productIdSchema.safeParse(id);
  if (!parsed.success) throw productNotFound();
  return parsed.data.toLowerCase();
}

/** Prices stored lines as the checkout would now. */
export async function priceLines(db: Reader, config: Config, user: SessionUser, lines: StoredLine[]): Promise<PricedCart> {
  const buyer = await buyerPricing(db, config.buyerVerification, user.id);
  const { products, sellers } = await selectBuyableProductsAndSellers(
    db,
    lines.map((l) => l.productId),
  );
  // A line whose product is gone is still shown under its seller: looked up only when there is one.
  const unseen = lines.flatMap((l) => (!products.has(l.productId) && l.sellerId !== null && !sellers.has(l.sellerId) ? [l.sellerId] : []));
  for (const [id, seller] of await selectSellers(db, unseen)) sellers.set(id, seller);
  return priceCart({ lines, products, sellers, buyerId: user.id, breaksApply: buyer.breaksApply });
}

/** GET /api/cart. */
export async function getCart(ctx: CartContext): Promise<Cart> {
  return toCart(await priceLines(ctx.db, ctx.config, ctx.user, await selectCartLines(ctx.db, ctx.user.id)));
}

/**
 * Whether `quantity` of `product` may be in this buyer's cart: the rules of Buy Now but the stock,
 * which is checked at checkout (a short line is shown, not refused). A product with nothing left to
 * buy cannot start a new line.
 */
export function refusalFor(product: BuyableProduct, buyerId: string, quantity: number, isNewLine: boolean): AppError | null {
  if (product.ownerId === buyerId) return ownProduct();
  if (product.priceCents === null) return unpriced();
  if (isNewLine && largestBuyable(product.mainquantity, product.casepack) < product.minquantity) return outOfStock(product.mainquantity);
  if (quantity < product.minquantity) return belowMoq(product.minquantity);
  if (quantity % product.casepack !== 0) return notWholeCases(product.casepack);
  return null;
}

/** A cart line's columns for `quantity` of `product`: its copy, and the unit price the buyer is shown now. */
function lineValues(buyerId: string, product: BuyableProduct, quantity: number, sellers: ReadonlyMap<string, SellerInfo>, breaksApply: boolean) {
  const seenUnitCents =
    product.priceCents === null
      ? 0
      : quotePrice({ priceCents: product.priceCents, discount: product.discount, tiers: product.priceBreaks }, quantity, { breaksApply }).unitCents;
  return {
    buyerId,
    productId: product.id,
    productName: product.name,
    productImage: product.image,
    productSku: product.sku,
    sellerId: product.ownerId,
    sellerName: (product.ownerId ? sellers.get(product.ownerId)?.name : undefined) ?? product.ownerEmail,
    quantity,
    seenUnitCents,
  };
}

/** Writes lines in one statement; a product already in the cart gets the new quantity and price seen. */
async function upsertLines(tx: Tx, values: ReturnType<typeof lineValues>[]): Promise<void> {
  if (values.length === 0) return;
  await tx
    .insert(cartLines)
    .values(values)
    .onConflictDoUpdate({
      target: [cartLines.buyerId, cartLines.productId],
      set: {
        quantity: sql`excluded.quantity`,
        seenUnitCents: sql`excluded.seen_unit_cents`,
        productName: sql`excluded.product_name`,
        productImage: sql`excluded.product_image`,
        productSku: sql`excluded.product_sku`,
        sellerId: sql`excluded.seller_id`,
        sellerName: sql`excluded.seller_name`,
        updatedAt: sql`now()`,
      },
    });
}

const cartFull = () => new AppError('VALIDATION', CART_TEXT.cartFull, { title: 'Cart full' });

/**
 * PUT /api/cart/lines/{productId}: sets the line (0 removes it). Below the MOQ or off the case pack is
 * a 422 in the spec's words, a seller's own product a 403, as in Buy Now. Setting a line again also
 * accepts its current price.
 */
export async function setCartLine(ctx: CartContext, input: { productId: string; quantity: number }): Promise<Cart> {
  const productId = parseProductId(input.productId);
  await ctx.db.transaction(async (tx) => {
    await lockCart(tx, ctx.user.id);
    if (input.quantity === 0) {
      await tx.delete(cartLines).where(and(eq(cartLines.buyerId, ctx.user.id), eq(cartLines.productId, productId)));
      return;
    }
    const buyer = await buyerPricing(tx, ctx.config.buyerVerification, ctx.user.id);
    if (!buyer.canOrder) throw forbidden(VERIFY_TEXT.required, { title: VERIFY_TEXT.requiredTitle });
    const { products, sellers } = await selectBuyableProductsAndSellers(tx, [productId]);
    const product = products.get(productId);
    if (!product) throw productNotFound();
    const lines = await selectCartLines(tx, ctx.user.id);
    const isNewLine = !lines.some((l) => l.productId === productId);
    const refusal = refusalFor(product, ctx.user.id, input.quantity, isNewLine);
    if (refusal) throw refusal;
    if (isNewLine && lines.length >= CART_LIMITS.lines) throw cartFull();
    await upsertLines(tx, [lineValues(ctx.user.id, product, input.quantity, sellers, buyer.breaksApply)]);
  });
  return getCart(ctx);
}

/** DELETE /api/cart/lines/{productId}: a product not in the cart is a 404. */
export async function removeCartLine(ctx: CartContext, input: { productId: string }): Promise<Cart> {
  const productId = parseProductId(input.productId);
  const removed = await ctx.db.transaction(async (tx) => {
    await lockCart(tx, ctx.user.id);
    return tx
      .delete(cartLines)
      .where(and(eq(cartLines.buyerId, ctx.user.id), eq(cartLines.productId, productId)))
      .returning({ productId: cartLines.productId });
  });
  if (removed.length === 0) throw notFound('This product is not in your cart.');
  return getCart(ctx);
}

/** One row to add, from a paste, a list of rows, an order or a saved list. */
export interface RowRequest {
  row: number;
  productId?: string | null;
  sku?: string;
  quantity: unknown;
  /** Set when the row is known to be unusable before any lookup (a line whose product was deleted). */
  error?: string;
}

const QUANTITY_TEXT = `Quantity must be a whole number from 1 to ${CART_LIMITS.quantityMax.toLocaleString('en-US')}`;

/** A whole number of units from JSON or from pasted text ("12"); anything else is null. */
export function parseRowQuantity(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,7}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= CART_LIMITS.quantityMax ? n : null;
}

/** What a SKU finds among other sellers' products: one product, or why not. */
type SkuResolution = { product: BuyableProduct } | { message: string; candidates?: SkuCandidate[] };

function matchSku(sku: string, found: BuyableProduct[], buyerId: string, sellers: ReadonlyMap<string, SellerInfo>): SkuResolution {
  const parsed = skuSchema.safeParse(sku);
  if (!parsed.success) return { message: `${parsed.error.issues[0]?.message ?? 'Unknown SKU'}.` };
  const lowered = parsed.data.toLowerCase();
  const all = found.filter((p) => p.sku?.toLowerCase() === lowered);
  const others = all.filter((p) => p.ownerId !== buyerId);
  if (others.length === 0) return { message: all.length > 0 ? ownProduct().message : `Unknown SKU ${parsed.data}.` };
  if (others.length > 1) {
    return {
      message: `SKU ${parsed.data} is sold by ${others.length} sellers: choose one.`,
      candidates: others.map((p) => ({ productId: p.id, sellerName: (p.ownerId ? sellers.get(p.ownerId)?.name : undefined) ?? p.ownerEmail, name: p.name })),
    };
  }
  return { product: others[0] as BuyableProduct };
}

/**
 * Adds rows to the buyer's cart in one transaction under the cart lock: each row is answered on its
 * own (added, or the reason it was not), and the valid ones are added even when others fail. A
 * product already in the cart gets the row's units on top; the MOQ and case pack hold for the sum.
 */
export async function addRows(ctx: CartContext, requests: RowRequest[]): Promise<CartAddResult[]> {
  return ctx.db.transaction(async (tx) => {
    await lockCart(tx, ctx.user.id);
    const buyer = await buyerPricing(tx, ctx.config.buyerVerification, ctx.user.id);
    const existing = await selectCartLines(tx, ctx.user.id);
    const ids = requests.flatMap((r) => (r.productId && productIdSchema.safeParse(r.productId).success ? [r.productId.toLowerCase()] : []));
    const skus = requests.flatMap((r) => (!r.productId && r.sku ? [r.sku.trim()] : []));
    const { products: byId, sellers } = await selectBuyableProductsAndSellers(tx, ids);
    const bySku = await selectProductsBySku(tx, skus);
    // Sellers of products named by SKU that the id lookup did not bring.
    const skuSellers = bySku.map((p) => p.ownerId).filter((id) => id !== null && !sellers.has(id));
    for (const [id, seller] of await selectSellers(tx, skuSellers)) sellers.set(id, seller);

    const quantities = new Map(existing.map((l) => [l.productId, l.quantity]));
    const changed = new Map<string, ReturnType<typeof lineValues>>();
    let lineCount = existing.length;

    const results = requests.map((request): CartAddResult => {
      const echo = request.sku ? { sku: request.sku.trim().slice(0, 64) } : {};
      const fail = (message: string, extra: Partial<CartAddResult> = {}): CartAddResult => ({ row: request.row, status: 'error', ...echo, ...extra, message });
      if (request.error) return fail(request.error, request.productId ? { productId: request.productId } : {});
      if (!buyer.canOrder) return fail(VERIFY_TEXT.required);
      const quantity = parseRowQuantity(request.quantity);
      if (quantity === null) return fail(QUANTITY_TEXT);
      let product: BuyableProduct | undefined;
      if (request.productId) {
        product = byId.get(request.productId.toLowerCase());
        if (!product) return fail('Unknown product: it does not exist or is no longer sold.', { productId: request.productId });
      } else if (request.sku) {
        const match = matchSku(request.sku, bySku, ctx.user.id, sellers);
        if (!('product' in match)) return fail(match.message, match.candidates ? { candidates: match.candidates } : {});
        product = match.product;
      } else {
        return fail('Give a SKU or a product.');
      }
      const current = quantities.get(product.id) ?? 0;
      const total = current + quantity;
      if (total > CART_LIMITS.quantityMax) {
        return fail(
          `That would make ${total.toLocaleString('en-US')} units of this product; a cart line holds at most ${CART_LIMITS.quantityMax.toLocaleString('en-US')}.`,
          { productId: product.id },
        );
      }
      const refusal = refusalFor(product, ctx.user.id, total, current === 0);
      if (refusal) return fail(refusal.message, { productId: product.id });
      if (current === 0 && lineCount >= CART_LIMITS.lines) return fail(CART_TEXT.cartFull, { productId: product.id });
      if (current === 0) lineCount += 1;
      quantities.set(product.id, total);
      changed.set(product.id, lineValues(ctx.user.id, product, total, sellers, buyer.breaksApply));
      return { row: request.row, status: 'added', productId: product.id, ...(product.sku ? { sku: product.sku } : echo), quantity };
    });
    await upsertLines(tx, [...changed.values()]);
    return results;
  });
}

/** POST /api/cart/lines: rows as a list, or pasted text (`SKU quantity` per line). */
export async function addCartLines(ctx: CartContext, input: AddCartLinesInput): Promise<{ results: CartAddResult[] }> {
  if (input.lines) {
    return {
      results: await addRows(
        ctx,
        input.lines.map((line, i) => ({ row: i + 1, productId: line.productId, sku: line.sku, quantity: line.quantity })),
      ),
    };
  }
  const rows = splitPastedRows(input.text ?? '');
  if (rows.length === 0) {
    throw new AppError('VALIDATION', 'Paste at least one row: a SKU and a quantity.', {
      fieldErrors: { text: ['Paste at least one row: a SKU and a quantity.'] },
    });
  }
  if (rows.length > CART_LIMITS.rows) {
    const message = `Paste at most ${CART_LIMITS.rows} rows at a time; this paste has ${rows.length}.`;
    throw new AppError('VALIDATION', message, { title: 'Too many rows', fieldErrors: { text: [message] } });
  }
  return {
    results: await addRows(
      ctx,
      rows.map((r) => ({ row: r.row, sku: r.sku, quantity: r.quantity })),
    ),
  };
}

/** `LIKE` treats `_` (allowed in SKUs) and `%` as wildcards; a typed prefix means itself. */
function likePrefix(text: string): string {
  return `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * GET /api/skus?q=: other sellers' products whose SKU starts with `q`, exact matches first, at most
 * SKU_MATCHES_MAX (products_sku_idx, text_pattern_ops). The buyer's own products and unlisted ones are
 * left out: they cannot buy them.
 */
export async function findSkus(ctx: CartContext, input: { q: string }): Promise<SkuMatch[]> {
  const lowered = input.q.toLowerCase();
  const rows = await ctx.db
    .select({
      id: products.id,
      sku: products.sku,
      name: products.name,
      priceCents: products.priceCents,
      minquantity: products.minquantity,
      casepack: products.casepack,
      mainquantity: products.mainquantity,
      ownerId: products.ownerId,
      ownerEmail: products.ownerEmail,
    })
    .from(products)
    .where(
      and(
        isNotNull(products.sku),
        sql`lower(${products.sku}) LIKE ${likePrefix(input.q)}`,
        or(isNull(products.ownerId), ne(products.ownerId, ctx.user.id)),
        isListed,
      ),
    )
    .orderBy(sql`lower(${products.sku}) = ${lowered} DESC`, sql`lower(${products.sku})`, asc(products.id))
    .limit(SKU_MATCHES_MAX);
  const sellers = await selectSellers(
    ctx.db,
    rows.map((r) => r.ownerId),
  );
  return rows.map((row) => ({
    productId: row.id,
    sku: row.sku ?? '',
    name: row.name,
    sellerName: (row.ownerId ? sellers.get(row.ownerId)?.name : undefined) ?? row.ownerEmail,
    price: row.priceCents === null ? null : toDollars(row.priceCents),
    minquantity: row.minquantity,
    casepack: row.casepack,
    available: row.mainquantity,
  }));
}
