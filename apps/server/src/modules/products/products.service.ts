import {
  LIMITS,
  productIdSchema,
  skuSchema,
  toCents,
  type AddProductInput,
  type MyProductsQuery,
  type Product,
  type ProductListQuery,
  type StockAdjustmentInput,
  type UpdateProductInput,
} from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden, notFound } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/error-causes.ts';
import { decodeCursor, takePage, type Page } from '../../lib/pagination.ts';
import type { SessionUser } from '../accounts/session.ts';
import { toProductJson } from './product-answer.ts';
import { buildTsquery, searchWordsOf } from '../search/index.ts';
import { ManyKeyBatcher, SameKeyBatcher } from '../../lib/turn-batch.ts';
import {
  adjustOwnedStock,
  deleteOwnedProduct,
  insertProduct,
  selectProductGuard,
  selectProductPage,
  relistOwnedProduct,
  selectListedProductsByIds,
  selectOwnedProduct,
  selectTopRated,
  updateOwnedProduct,
  type ProductChanges,
} from './products.queries.ts';

export interface ReadContext {
  db: Db;
}

export interface WriteContext {
  db: Db;
  user: SessionUser;
}

const productNotFound = () => notFound('This product does not exist (it may have been deleted).');
const notYourProduct = () => forbidden('Only the seller who listed this product can change it.');

/** A malformed id names no product: the same 404 as an unknown one, and never a database error. */
function parseProductId(id: string): string {
  const parsed = productIdSchema.safeParse(id);
  if (!parsed.success) throw productNotFound();
  return parsed.data.toLowerCase();
}

function toPage(rows: Awaited<ReturnType<typeof selectProductPage>>, limit: number): Page<Product> {
  const page = takePage(rows, limit);
  return { items: page.items.map(toProductJson), nextCursor: page.nextCursor };
}

/**
 * The public reads batch per turn of the event loop (turn-batch.ts): requests arriving together share
 * one query, and so one result object, which the routes serialise once. One set per database.
 */
interface ReadBatchers {
  top: SameKeyBatcher<Product[]>;
  pages: SameKeyBatcher<Page<Product>>;
  byId: ManyKeyBatcher<Product>;
}

const batchersByDb = new WeakMap<Db, ReadBatchers>();

function batchersFor(db: Db): ReadBatchers {
  let batchers = batchersByDb.get(db);
  if (!batchers) {
    batchers = {
      top: new SameKeyBatcher(),
      pages: new SameKeyBatcher(),
      byId: new ManyKeyBatcher(async (ids) => {
        const rows = await selectListedProductsByIds(db, ids);
        return new Map(rows.map((row) => [row.id, toProductJson(row)]));
      }),
    };
    batchersByDb.set(db, batchers);
  }
  return batchers;
}

/** The result may be shared with concurrent callers: read it, never change it. */
export async function listTopProducts(ctx: ReadContext): Promise<Product[]> {
  return batchersFor(ctx.db).top.load('top', async () => {
    const rows = await selectTopRated(ctx.db, LIMITS.featuredCount);
    return rows.map(toProductJson);
  });
}

/** The public catalog, newest first, one page at a time. The page may be shared: read only. */
export async function listProducts(ctx: ReadContext, query: ProductListQuery): Promise<Page<Product>> {
  // A bad cursor is this request's own 422, before it joins anyone.
  const beforeSeq = decodeCursor(query.cursor);
  const key = JSON.stringify([query.limit, beforeSeq, query.category ?? null, query.available ?? null]);
  return batchersFor(ctx.db).pages.load(key, async () => {
    const rows = await selectProductPage(ctx.db, {
      category: query.category,
      availableOnly: query.available === 'true',
      beforeSeq,
      take: query.limit + 1,
    });
    return toPage(rows, query.limit);
  });
}

/**
 * My Product's search box: every word as a prefix of the catalog's search document (as /api/search
 * does, without its typo correction), or, for text shaped like a SKU, the start of the SKU.
 */
function ownSearchOf(q: string): { tsquery: string | null; skuPrefix: string | null } {
  const words = searchWordsOf(q);
  return {
    tsquery: words.length > 0 ? buildTsquery(words.map((word) => ({ word, isKnown: true, near: [] }))) : null,
    skuPrefix: skuSchema.safeParse(q).success ? q : null,
  };
}

/** A seller's own listings; emails compare case-insensitively, and nobody reads another's list. */
export async function listOwnProducts(ctx: WriteContext, input: { email: string; query: MyProductsQuery }): Promise<Page<Product>> {
  if (input.email.trim().toLowerCase() !== ctx.user.email.toLowerCase()) {
    throw forbidden('You can only list your own products.');
  }
  const { q, stock } = input.query;
  const rows = await selectProductPage(ctx.db, {
    ownerEmail: ctx.user.email,
    category: input.query.category,
    availableOnly: input.query.available === 'true',
    ...(stock !== undefined ? { stock } : {}),
    ...(q !== undefined ? { text: ownSearchOf(q) } : {}),
    beforeSeq: decodeCursor(input.query.cursor),
    take: input.query.limit + 1,
  });
  return toPage(rows, input.query.limit);
}

/**
 * Requests for products arriving together are answered by one `id = ANY(…)` query. Read only. An
 * unlisted product is a 404 like a deleted one: the route is public and shared, so even its seller
 * reads it through My Product.
 */
export async function getProduct(ctx: ReadContext, input: { id: string }): Promise<Product> {
  const product = await batchersFor(ctx.db).byId.load(parseProductId(input.id));
  if (!product) throw productNotFound();
  return product;
}

/** The schema bounds price by LIMITS.priceMax and to two decimals, so cents are exact and fit 32 bits. */
function toPriceCents(price: number | undefined): number | null {
  return price === undefined ? null : toCents(price);
}

/** Form fields → columns. Optional fields left out are stored empty: a PUT replaces the product. */
function toColumns(input: AddProductInput | UpdateProductInput): ProductChanges {
  return {
    image: input.image,
    image2: input.image2 ?? null,
    image3: input.image3 ?? null,
    name: input.name,
    mainquantity: input.mainquantity,
    minquantity: input.minquantity,
    brandname: input.brandname,
    category: input.category,
    description: input.description ?? null,
    content: input.Content ?? null,
    priceCents: toPriceCents(input.price),
    rating: input.rating ?? null,
    discount: input.discount ?? 0,
    casepack: input.casepack ?? 1,
    priceBreaks: (input.tiers ?? []).map((t) => ({ minquantity: t.minquantity, priceCents: toCents(t.price) })),
    sku: input.sku ?? null,
  };
}

/** A SKU the seller already uses on another product (products_owner_sku_idx): a 409 naming it, on the field. */
function skuTaken(sku: string): AppError {
  const message = `You already have a product with SKU ${sku}.`;
  return new AppError('CONFLICT', message, { title: 'SKU already used', fieldErrors: { sku: [message] } });
}

/** Runs a write that may hit the per-seller SKU index; that violation becomes skuTaken. */
async function withUniqueSku<T>(sku: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sku !== undefined && isUniqueViolation(error)) throw skuTaken(sku);
    throw error;
  }
}

/** The owner comes from the session; a `useremail` or `updatedby` in the body was already dropped. */
export async function addProduct(ctx: WriteContext, input: AddProductInput): Promise<Product> {
  const row = await withUniqueSku(input.sku, () =>
    insertProduct(ctx.db, {
      ...toColumns(input),
      updatedBy: null,
      ownerId: ctx.user.id,
      ownerEmail: ctx.user.email,
    }),
  );
  return toProductJson(row);
}

/**
 * After a guarded write found no row, one more read tells why. Ownership is the owner id, not the
 * email, so an email reused by a new account does not inherit the old account's products.
 */
async function explainMissedWrite(ctx: WriteContext, id: string): Promise<{ mainquantity: number }> {
  const guard = await selectProductGuard(ctx.db, id);
  if (!guard) throw productNotFound();
  if (guard.ownerId !== ctx.user.id) throw notYourProduct();
  return guard;
}

export async function updateProduct(ctx: WriteContext, input: { id: string; product: UpdateProductInput }): Promise<Product> {
  const id = parseProductId(input.id);
  const row = await withUniqueSku(input.product.sku, () =>
    updateOwnedProduct(ctx.db, id, ctx.user.id, { ...toColumns(input.product), updatedBy: ctx.user.email }),
  );
  if (row) return toProductJson(row);
  await explainMissedWrite(ctx, id);
  // The product vanished between the two statements: it is gone either way.
  throw productNotFound();
}

export async function deleteProduct(ctx: WriteContext, input: { id: string }): Promise<{ _id: string; deleted: true }> {
  const id = parseProductId(input.id);
  if (await deleteOwnedProduct(ctx.db, id, ctx.user.id)) return { _id: id, deleted: true };
  await explainMissedWrite(ctx, id);
  throw productNotFound();
}

export async function adjustStock(ctx: WriteContext, input: { id: string; adjustment: StockAdjustmentInput }): Promise<Product> {
  const id = parseProductId(input.id);
  const delta = input.adjustment.quantity;
  const row = await adjustOwnedStock(ctx.db, id, ctx.user.id, delta, ctx.user.email);
  if (row) return toProductJson(row);
  const { mainquantity } = await explainMissedWrite(ctx, id);
  const max = LIMITS.quantityMax.toLocaleString('en-US');
  throw new AppError(
    'CONFLICT',
    delta < 0
      ? `Stock cannot go below 0: there are only ${mainquantity} units in stock.`
      : `Stock cannot go above ${max} units: there are already ${mainquantity} units in stock.`,
    { title: 'Stock not changed' },
  );
}

/**
 * POST /api/my/products/{id}/relist: the owner's unlisted product back in the catalog, as it was. A
 * product already listed is answered as it is (relisting twice changes nothing).
 */
export async function relistProduct(ctx: WriteContext, input: { id: string }): Promise<Product> {
  const id = parseProductId(input.id);
  const row = (await relistOwnedProduct(ctx.db, id, ctx.user.id, ctx.user.email)) ?? (await selectOwnedProduct(ctx.db, id, ctx.user.id));
  if (row) return toProductJson(row);
  await explainMissedWrite(ctx, id);
  throw productNotFound();
}
