import { and, inArray, sql, type SQL } from 'drizzle-orm';
import { SEARCH_LIMITS, type SearchSort } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { decodeColumns, nullColumns, queryRows, selectColumns } from '../../db/rows.ts';
import { isListed, products, searchCatalogVersion, searchFacetCells } from '../../db/schema/index.ts';
import { productPageColumns, type ProductRecord } from '../products/index.ts';
import type { SearchCursor } from './search-cursor.ts';
import type { LookedUpWord } from './search-words.ts';

/**
 * The statements of search (docs/decisions/009-search.md), each shaped to an index of db/schema/catalog.ts or search.ts:
 * words go through products_search_doc_idx (GIN), typo lookups through search_terms_trgm_idx (GiST),
 * pages without words through the seq, price and rating indexes (products_facets_idx when category
 * and brand filters narrow them most), and the facet counts of a query without words through the
 * counted cells of search_facet_cells. EXPLAIN output is in docs/benchmarks.md.
 */

/** Nearest indexed words per query word; trigram similarity above pg_trgm's 0.3 default (`%`). */
const NEAR_WORDS = 3;

export async function lookupWords(db: Db, words: string[]): Promise<LookedUpWord[]> {
  if (words.length === 0) return [];
  const list = sql`ARRAY[${sql.join(
    words.map((w) => sql`${w}`),
    sql`, `,
  )}]::text[]`;
  const rows = await queryRows<{ word: string; known: boolean; near: string[] }>(
    db,
    sql`SELECT w.word,
               k.known,
               CASE WHEN k.known THEN ARRAY[]::text[]
                    ELSE ARRAY(SELECT t.term FROM search_terms t WHERE t.term % w.word ORDER BY t.term <-> w.word, t.term LIMIT ${NEAR_WORDS})
               END AS near
          FROM unnest(${list}) WITH ORDINALITY AS w(word, pos)
         CROSS JOIN LATERAL (
           SELECT length(w.word) < 3 OR w.word !~ '[[:alpha:]]'
                  OR EXISTS (SELECT 1 FROM search_terms t WHERE t.term LIKE w.word || '%') AS known
         ) k
         ORDER BY w.pos`,
  );
  return rows.map((r) => ({ word: r.word, isKnown: r.known, near: r.near }));
}

/** The catalog version search answers are cached under (search-cache.ts); one primary-key row. */
export async function selectCatalogVersion(db: Db): Promise<number> {
  const [row] = await db
    .select({ version: searchCatalogVersion.version })
    .from(searchCatalogVersion)
    .where(sql`${searchCatalogVersion.id} = 1`);
  return row ? Number(row.version) : 0;
}

/**
 * A cached page's products, read fresh (stock and prices current) by products_seq_unique. Unlisting
 * bumps the catalog version, so a cached page never names an unlisted product; the filter holds anyway.
 */
export async function selectProductsBySeq(db: Db, seqs: number[]): Promise<Array<ProductRecord & { seq: number }>> {
  if (seqs.length === 0) return [];
  return db
    .select(productPageColumns)
    .from(products)
    .where(and(inArray(products.seq, seqs), isListed));
}

export interface SearchFilter {
  /** tsquery text (search-words.ts buildTsquery); undefined for a search without words. */
  tsquery?: string;
  /** The same words restricted to names: name matches rank first. */
  nameTsquery?: string;
  categories: string[];
  brands: string[];
  minPriceCents?: number;
  maxPriceCents?: number;
  maxMoq?: number;
  inStock: boolean;
}

const textMatch = (tsquery: string): SQL => sql`${products.searchDoc} @@ to_tsquery('simple', ${tsquery})`;
const categoryMatch = (f: SearchFilter): SQL | undefined => (f.categories.length > 0 ? inArray(products.category, f.categories) : undefined);
const brandMatch = (f: SearchFilter): SQL | undefined => (f.brands.length > 0 ? inArray(products.brandname, f.brands) : undefined);

function priceMatch(f: SearchFilter): SQL | undefined {
  const bounds: SQL[] = [];
  if (f.minPriceCents !== undefined) bounds.push(sql`${products.shownPriceCents} >= ${f.minPriceCents}`);
  if (f.maxPriceCents !== undefined) bounds.push(sql`${products.shownPriceCents} <= ${f.maxPriceCents}`);
  return bounds.length > 0 ? and(...bounds) : undefined;
}

/**
 * The conditions every count shares: listed, words, MOQ and stock (facets leave out only their own
 * filter). Searches without words take their facets from search_facet_cells, which hold listed products only.
 */
function sharedConditions(f: SearchFilter): SQL[] {
  const conditions: SQL[] = [isListed];
  if (f.tsquery !== undefined) conditions.push(textMatch(f.tsquery));
  if (f.maxMoq !== undefined) conditions.push(sql`${products.minquantity} <= ${f.maxMoq}`);
  if (f.inStock) conditions.push(sql`${products.mainquantity} >= ${products.minquantity}`);
  return conditions;
}

/** Integer relevance: a name match first, then ts_rank with name > brand/category > description. */
function relevanceOf(f: SearchFilter): SQL<number> {
  if (f.tsquery === undefined || f.nameTsquery === undefined) return sql<number>`0`;
  return sql<number>`((CASE WHEN ${products.searchDoc} @@ to_tsquery('simple', ${f.nameTsquery}) THEN 1000000 ELSE 0 END)
    + round(ts_rank('{0.1, 0.2, 0.4, 1.0}', ${products.searchDoc}, to_tsquery('simple', ${f.tsquery})) * 100000))::integer`;
}

interface SortPlan {
  key: SQL<number | null>;
  direction: 'ASC' | 'DESC';
}

function sortPlanOf(sort: SearchSort, f: SearchFilter): SortPlan {
  switch (sort) {
    case 'relevance':
      return { key: relevanceOf(f), direction: 'DESC' };
    case 'price_asc':
      return { key: sql<number | null>`${products.shownPriceCents}`, direction: 'ASC' };
    case 'price_desc':
      return { key: sql<number | null>`${products.shownPriceCents}`, direction: 'DESC' };
    case 'rating':
      return { key: sql<number | null>`${products.rating}`, direction: 'DESC' };
    case 'newest':
      return { key: sql<number | null>`${products.seq}`, direction: 'DESC' };
  }
}

/** Rows after the cursor in `key <direction> NULLS LAST, seq DESC` order. */
function afterCursor(plan: SortPlan, cursor: SearchCursor, seq: SQL = sql`${products.seq}`): SQL {
  const seqBefore = sql`${seq} < ${cursor.seq}`;
  if (cursor.key === null) return sql`(${plan.key} IS NULL AND ${seqBefore})`;
  const beyond = plan.direction === 'ASC' ? sql`${plan.key} > ${cursor.key}` : sql`${plan.key} < ${cursor.key}`;
  return sql`(${beyond} OR (${plan.key} = ${cursor.key} AND ${seqBefore}) OR ${plan.key} IS NULL)`;
}

export type SearchRow = ProductRecord & { seq: number; sortKey: number | null };

export async function selectSearchPage(db: Db, f: SearchFilter, sort: SearchSort, cursor: SearchCursor | null, take: number): Promise<SearchRow[]> {
  const plan = sortPlanOf(sort, f);
  const conditions = [...sharedConditions(f), categoryMatch(f), brandMatch(f), priceMatch(f)];
  if (cursor !== null) conditions.push(sort === 'newest' ? sql`${products.seq} < ${cursor.seq}` : afterCursor(plan, cursor));
  const order = plan.direction === 'ASC' ? sql`${plan.key} ASC NULLS LAST` : sql`${plan.key} DESC NULLS LAST`;
  return db
    .select({ ...productPageColumns, sortKey: plan.key })
    .from(products)
    .where(and(...conditions))
    .orderBy(...(sort === 'newest' ? [] : [order]), sql`${products.seq} DESC NULLS LAST`)
    .limit(take);
}

export interface FacetRows {
  categories: Array<{ value: string; count: number }>;
  brands: Array<{ value: string; count: number }>;
  total: number;
  minPriceCents: number | null;
  maxPriceCents: number | null;
}

/** A facet row: a category or brand count, or the one 'all' row with the total and the price range. */
interface FacetRow {
  kind: 'category' | 'brand' | 'all';
  value: string | null;
  n: number;
  min_price: number | null;
  max_price: number | null;
}

const listOf = (values: string[]): SQL =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Every facet from `matches` (category, brandname, in_price, n, min_price, max_price): the matches
 * already counted per category, brand and "in the price band", so the filters of each facet are tested
 * on a few hundred groups rather than on every product. Each facet's counts apply every filter but its
 * own (a buyer sees how many a second category would add), and the price range ignores the price
 * filter. Grouping sets give category rows, brand rows and one total row; brands are cut to the top 20
 * (and any the buyer picked), so the answer stays bounded however many brands match. `ord` is the
 * order facets are shown in.
 */
function facetRowsOf(f: SearchFilter): SQL {
  const yes = sql`TRUE`;
  const inCategory = f.categories.length > 0 ? sql`category IN (${listOf(f.categories)})` : yes;
  const inBrand = f.brands.length > 0 ? sql`brandname IN (${listOf(f.brands)})` : yes;
  const picked = f.brands.length > 0 ? sql`value IN (${listOf(f.brands)})` : sql`FALSE`;
  return sql`SELECT kind, value, n::integer AS n, min_price, max_price, row_number() OVER (ORDER BY kind, n DESC, value) AS ord FROM (
          SELECT kind, value, n, min_price, max_price,
                 row_number() OVER (PARTITION BY kind ORDER BY n DESC, value) AS place
            FROM (
              SELECT CASE WHEN GROUPING(category) = 0 THEN 'category'
                          WHEN GROUPING(brandname) = 0 THEN 'brand' ELSE 'all' END AS kind,
                     COALESCE(category, brandname) AS value,
                     COALESCE(CASE WHEN GROUPING(category) = 0 THEN sum(n) FILTER (WHERE ${inBrand} AND in_price)
                                   WHEN GROUPING(brandname) = 0 THEN sum(n) FILTER (WHERE ${inCategory} AND in_price)
                                   ELSE sum(n) FILTER (WHERE ${inCategory} AND ${inBrand} AND in_price) END, 0) AS n,
                     min(min_price) FILTER (WHERE ${inCategory} AND ${inBrand}) AS min_price,
                     max(max_price) FILTER (WHERE ${inCategory} AND ${inBrand}) AS max_price
                FROM matches
               GROUP BY GROUPING SETS ((category), (brandname), ())
            ) grouped
        ) ranked
        WHERE kind <> 'brand' OR (n > 0 AND place <= ${SEARCH_LIMITS.brandFacetCount}) OR ${picked}`;
}

function facetsOf(rows: FacetRow[]): FacetRows {
  const facets: FacetRows = { categories: [], brands: [], total: 0, minPriceCents: null, maxPriceCents: null };
  for (const row of rows) {
    if (row.kind === 'all') {
      facets.total = Number(row.n);
      facets.minPriceCents = row.min_price === null ? null : Number(row.min_price);
      facets.maxPriceCents = row.max_price === null ? null : Number(row.max_price);
    } else if (row.value !== null) {
      (row.kind === 'category' ? facets.categories : facets.brands).push({ value: row.value, count: Number(row.n) });
    }
  }
  return facets;
}

/**
 * How many of a facet cell's prices (sorted) lie in the price filter: width_bucket(x, prices) is the
 * number of prices ≤ x, found by binary search. Unpriced products count only when there is no filter.
 */
function cellCountInPrice(f: SearchFilter): SQL {
  const below = (cents: number): SQL => sql`width_bucket(${cents}::integer, ${searchFacetCells.prices})`;
  const all = sql`cardinality(${searchFacetCells.prices})`;
  if (f.minPriceCents === undefined && f.maxPriceCents === undefined) return sql`${all} + ${searchFacetCells.unpriced}`;
  const upTo = f.maxPriceCents === undefined ? all : below(f.maxPriceCents);
  return f.minPriceCents === undefined ? upTo : sql`greatest(0, ${upTo} - ${below(f.minPriceCents - 1)})`;
}

/**
 * The facets of a search without words, from search_facet_cells (migration 0007): one row per
 * category, brand, MOQ and "in stock" (1,164 at the bench's 100,000 products), instead of every
 * product. Answers equal a count over the products (search-facet-cells.test.ts holds them to it).
 */
export async function selectFacetsWithoutWords(db: Db, f: SearchFilter): Promise<FacetRows> {
  const cells: SQL[] = [];
  if (f.maxMoq !== undefined) cells.push(sql`${searchFacetCells.minquantity} <= ${f.maxMoq}`);
  if (f.inStock) cells.push(sql`${searchFacetCells.inStock}`);
  const rows = await queryRows<FacetRow>(
    db,
    sql`WITH matches AS (
          SELECT ${searchFacetCells.category} AS category, ${searchFacetCells.brandname} AS brandname, TRUE AS in_price,
                 ${cellCountInPrice(f)} AS n,
                 ${searchFacetCells.prices}[1] AS min_price, ${searchFacetCells.prices}[cardinality(${searchFacetCells.prices})] AS max_price
            FROM ${searchFacetCells}
           WHERE ${cells.length > 0 ? and(...cells) : sql`TRUE`}
        )
        SELECT * FROM (${facetRowsOf(f)}) facets ORDER BY ord`,
  );
  return facetsOf(rows);
}

export interface WordSearchRows {
  /** The page in order, with one row more than asked when there is a next page. */
  page: SearchRow[];
  facets: FacetRows;
}

const PRODUCT = 'p_';

/**
 * A search with words in one statement: the matches are read once from the full-text index (each
 * needs its heap row: category, brand, price and the sort key), then the page and the facets are both
 * taken from them, and the page's products joined by seq. Two statements would read every match's
 * heap row twice. Facet rows and page rows come back as one list (`kind` 'page' for the products).
 */
export async function selectWordSearch(db: Db, f: SearchFilter, sort: SearchSort, cursor: SearchCursor | null, take: number): Promise<WordSearchRows> {
  const plan = sortPlanOf(sort, f);
  const key = sql<number | null>`found.sort_key`;
  const onPage: SQL[] = [];
  if (f.categories.length > 0) onPage.push(sql`found.category IN (${listOf(f.categories)})`);
  if (f.brands.length > 0) onPage.push(sql`found.brandname IN (${listOf(f.brands)})`);
  if (f.minPriceCents !== undefined || f.maxPriceCents !== undefined) onPage.push(sql`found.in_price`);
  if (cursor !== null)
    onPage.push(sort === 'newest' ? sql`found.seq < ${cursor.seq}` : afterCursor({ key, direction: plan.direction }, cursor, sql`found.seq`));
  const order = plan.direction === 'ASC' ? sql`sort_key ASC NULLS LAST` : sql`sort_key DESC NULLS LAST`;
  const rows = await queryRows<FacetRow & { sort_key: string | number | null } & Record<string, unknown>>(
    db,
    sql`WITH found AS MATERIALIZED (
          SELECT ${products.seq} AS seq, ${products.category} AS category, ${products.brandname} AS brandname,
                 ${products.shownPriceCents} AS price_cents, ${priceMatch(f) ?? sql`TRUE`} AS in_price, ${plan.key} AS sort_key
            FROM ${products}
           WHERE ${and(...sharedConditions(f))}
        ),
        page AS (
          SELECT seq, sort_key, row_number() OVER (ORDER BY ${order}, seq DESC) AS ord FROM (
            SELECT found.seq, found.sort_key FROM found
             WHERE ${onPage.length > 0 ? and(...onPage) : sql`TRUE`}
             ORDER BY ${order}, found.seq DESC
             LIMIT ${take}
          ) taken
        ),
        matches AS (
          SELECT category, brandname, in_price, count(*) AS n, min(price_cents) AS min_price, max(price_cents) AS max_price
            FROM found GROUP BY 1, 2, 3
        )
        SELECT kind, value, n, min_price, max_price, ord, NULL::bigint AS sort_key, ${nullColumns(productPageColumns, PRODUCT)}
          FROM (${facetRowsOf(f)}) facets
        UNION ALL
        SELECT 'page', NULL, NULL, NULL, NULL, page.ord, page.sort_key, ${selectColumns(productPageColumns, PRODUCT)}
          FROM page JOIN ${products} ON ${products.seq} = page.seq
        ORDER BY kind, ord`,
  );
  const page: WordSearchRows['page'] = [];
  const facetRows: FacetRow[] = [];
  for (const row of rows) {
    if ((row.kind as string) !== 'page') facetRows.push(row);
    else page.push({ ...decodeColumns(productPageColumns, row, PRODUCT), sortKey: row.sort_key === null ? null : Number(row.sort_key) });
  }
  return { page, facets: facetsOf(facetRows) };
}

/**
 * Product names for a prefix typed in the search box: names only (weight A), newest first, a few
 * more rows than needed so that repeated names still leave eight different ones.
 */
export async function selectNameSuggestions(db: Db, nameTsquery: string, count: number): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`SELECT name FROM (
          SELECT ${products.name} AS name, ${products.seq} AS seq FROM ${products}
           WHERE ${products.searchDoc} @@ to_tsquery('simple', ${nameTsquery}) AND ${isListed}
           ORDER BY ${products.seq} DESC NULLS LAST
           LIMIT ${count * 5}
        ) recent
        GROUP BY name ORDER BY max(seq) DESC LIMIT ${count}`,
  );
  return rows.map((r) => r.name);
}
