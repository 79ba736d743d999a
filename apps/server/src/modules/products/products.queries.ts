import { and, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { LIMITS, type Category, type StockState } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { products } from '../../db/schema/index.ts';
import { isListed, stockStateSql } from '../../db/schema/catalog.ts';
import { productColumns, productPageColumns, type ProductRecord } from './product-answer.ts';

/**
 * Every statement here is one round trip and is shaped to an index of db/schema/catalog.ts:
 * `seq DESC NULLS LAST` is spelled out because a plain `DESC` means NULLS FIRST, which the indexes do
 * not store; and the available filter is the literal `minquantity > 100` of the partial indexes'
 * predicate (a bound parameter would not let the planner prove the index applies).
 */

const newestFirst = sql`${products.seq} DESC NULLS LAST`;
const isAvailable = sql`${products.minquantity} > ${sql.raw(String(LIMITS.availableMoqAbove))}`;

export type ProductPageRecord = ProductRecord & { seq: number };

export interface ProductPageFilter {
  category?: Category;
  availableOnly?: boolean;
  ownerEmail?: string;
  /** My Product: one stock state, kept from the seller's rows read newest first (no index covers stock). */
  stock?: StockState;
  /** My Product's search: the text search of these words (prefixes), or the SKU starting with `skuPrefix`. */
  text?: { tsquery: string | null; skuPrefix: string | null };
  /** Only rows older than this `seq` (the cursor). */
  beforeSeq: number | null;
  /** Rows to read: one more than the page, to learn whether a next page exists. */
  take: number;
}

/**
 * The search document (GIN products_search_doc_idx) or the SKU's start (products_sku_idx, LIKE with
 * its wildcards escaped); neither given, nothing matches.
 */
function textMatch({ tsquery, skuPrefix }: { tsquery: string | null; skuPrefix: string | null }): SQL {
  const alternatives: SQL[] = [];
  if (tsquery !== null) alternatives.push(sql`${products.searchDoc} @@ to_tsquery('simple', ${tsquery})`);
  if (skuPrefix !== null) alternatives.push(sql`lower(${products.sku}) LIKE ${`${skuPrefix.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`}`);
  return or(...alternatives) ?? sql`false`;
}

export async function selectProductPage(db: Db, filter: ProductPageFilter): Promise<ProductPageRecord[]> {
  return productPageQuery(db, filter);
}

/** The statement of selectProductPage, unrun: its tests read the plan of exactly this. */
export function productPageQuery(db: Db, filter: ProductPageFilter) {
  const conditions: SQL[] = [];
  // The seller's own list holds their unlisted products too; every other list only what buyers may buy.
  if (filter.ownerEmail !== undefined) conditions.push(eq(products.ownerEmail, filter.ownerEmail));
  else conditions.push(isListed);
  if (filter.category !== undefined) conditions.push(eq(products.category, filter.category));
  if (filter.availableOnly) conditions.push(isAvailable);
  if (filter.stock !== undefined) conditions.push(sql`${stockStateSql(products.mainquantity, products.minquantity)} = ${filter.stock}`);
  if (filter.text !== undefined) conditions.push(textMatch(filter.text));
  if (filter.beforeSeq !== null) conditions.push(lt(products.seq, filter.beforeSeq));
  return db
    .select(productPageColumns)
    .from(products)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(newestFirst)
    .limit(filter.take);
}

/** Served by products_rating_seq_idx: `rating DESC NULLS LAST, seq DESC NULLS LAST`. */
export async function selectTopRated(db: Db, count: number): Promise<ProductRecord[]> {
  return db
    .select(productColumns)
    .from(products)
    .where(isListed)
    .orderBy(sql`${products.rating} DESC NULLS LAST`, newestFirst)
    .limit(count);
}

/** Several listed products in one round trip (the primary key serves `id = ANY(…)`); unknown and unlisted ids are absent. */
export async function selectListedProductsByIds(db: Db, ids: string[]): Promise<ProductRecord[]> {
  if (ids.length === 0) return [];
  return db
    .select(productColumns)
    .from(products)
    .where(and(inArray(products.id, ids), isListed));
}

/** What a failed guarded write needs to tell 404, 403 and 409 apart. */
export async function selectProductGuard(db: Db, id: string): Promise<{ ownerId: string | null; mainquantity: number } | undefined> {
  const [row] = await db.select({ ownerId: products.ownerId, mainquantity: products.mainquantity }).from(products).where(eq(products.id, id)).limit(1);
  return row;
}

export type NewProductValues = Omit<typeof products.$inferInsert, 'id' | 'seq' | 'createdAt' | 'updatedAt'>;
export type ProductChanges = Omit<NewProductValues, 'ownerId' | 'ownerEmail'>;

export async function insertProduct(db: Db, values: NewProductValues): Promise<ProductRecord> {
  const [row] = await db.insert(products).values(values).returning(productColumns);
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return row;
}

/** Replaces the fields of the owner's product; `undefined` when no row is both this id and theirs. */
export async function updateOwnedProduct(db: Db, id: string, ownerId: string, changes: ProductChanges): Promise<ProductRecord | undefined> {
  const [row] = await db
    .update(products)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(products.id, id), eq(products.ownerId, ownerId)))
    .returning(productColumns);
  return row;
}

/** Lists the owner's unlisted product again; `undefined` when no row is this id, theirs and unlisted. */
export async function relistOwnedProduct(db: Db, id: string, ownerId: string, updatedBy: string): Promise<ProductRecord | undefined> {
  const [row] = await db
    .update(products)
    .set({ unlistedAt: null, updatedBy, updatedAt: sql`now()` })
    .where(and(eq(products.id, id), eq(products.ownerId, ownerId), sql`${products.unlistedAt} IS NOT NULL`))
    .returning(productColumns);
  return row;
}

/** One product of the owner's, listed or not (the primary key); `undefined` when not theirs. */
export async function selectOwnedProduct(db: Db, id: string, ownerId: string): Promise<ProductRecord | undefined> {
  const [row] = await db
    .select(productColumns)
    .from(products)
    .where(and(eq(products.id, id), eq(products.ownerId, ownerId)));
  return row;
}

export async function deleteOwnedProduct(db: Db, id: string, ownerId: string): Promise<boolean> {
  const rows = await db
    .delete(products)
    .where(and(eq(products.id, id), eq(products.ownerId, ownerId)))
    .returning({ id: products.id });
  return rows.length > 0;
}

/**
 * Adds `delta` to the owner's stock in one guarded statement: the row lock makes concurrent
 * adjustments queue, and PostgreSQL re-checks the guard on the row each one finds, so the result can
 * never leave 0..quantityMax. The sum is taken in bigint so the guard itself cannot overflow.
 */
export async function adjustOwnedStock(db: Db, id: string, ownerId: string, delta: number, updatedBy: string): Promise<ProductRecord | undefined> {
  const [row] = await db
    .update(products)
    .set({ mainquantity: sql`${products.mainquantity} + ${delta}::integer`, updatedBy, updatedAt: sql`now()` })
    .where(
      and(
        eq(products.id, id),
        eq(products.ownerId, ownerId),
        sql`${products.mainquantity}::bigint + ${delta}::bigint BETWEEN 0 AND ${sql.raw(String(LIMITS.quantityMax))}`,
      ),
    )
    .returning(productColumns);
  return row;
}
