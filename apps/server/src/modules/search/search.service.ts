import {
  CATEGORIES,
  SEARCH_LIMITS,
  effectiveSort,
  normalizeSearchText,
  type SearchQuery,
  type SearchSort,
  type SearchResult,
  type SuggestResult,
  type Suggestion,
} from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { toProductJson, type ProductRecord } from '../products/index.ts';
import { cachedAnswer, storeAnswer } from './search-cache.ts';
import { decodeSearchCursor, encodeSearchCursor, type SearchCursor } from './search-cursor.ts';
import {
  lookupWords,
  selectCatalogVersion,
  selectFacetsWithoutWords,
  selectNameSuggestions,
  selectProductsBySeq,
  selectSearchPage,
  selectWordSearch,
  type FacetRows,
  type SearchFilter,
  type SearchRow,
} from './search.queries.ts';
import { buildTsquery, matchedTerms, searchWordsOf } from './search-words.ts';

const toCents = (dollars: number | undefined): number | undefined => (dollars === undefined ? undefined : Math.round(dollars * 100));
const toDollars = (cents: number | null): number | null => (cents === null ? null : cents / 100);

/** What a cached search answer keeps (search-cache.ts): its shape, never the products themselves. */
interface SearchShape {
  page: Array<{ seq: number; sortKey: number | null }>;
  nextCursor: string | null;
  facets: SearchResult['facets'];
  total: number;
  terms: string[];
}

type PageRow = ProductRecord & { seq: number };

/**
 * GET /api/search: open to everyone, like the catalog reads (docs/decisions/003-catalog-api.md).
 * An answer's shape is cached under the catalog version read first (search-cache.ts); the page's
 * products are always read fresh. On a miss, the page and the facets are two independent statements;
 * on PostgreSQL they run side by side.
 */
export async function searchProducts(ctx: { db: Db }, query: SearchQuery): Promise<SearchResult> {
  const sort = effectiveSort(query);
  const cursor = decodeSearchCursor(sort, query.cursor);
  const words = searchWordsOf(query.q);
  const version = await selectCatalogVersion(ctx.db);
  // Everything the answer depends on: the words as the index stores them, every filter, sort, page.
  const key = JSON.stringify({ ...query, q: words, sort });
  const cached = cachedAnswer<SearchShape>(ctx.db, version, key);
  if (cached) {
    const rows = await selectProductsBySeq(
      ctx.db,
      cached.page.map((p) => p.seq),
    );
    const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
    const items = cached.page.map((p) => bySeq.get(p.seq));
    // A product deleted since the version was read: answer afresh rather than a short page.
    if (items.every((row) => row !== undefined)) return answerOf(cached, items as PageRow[]);
  }
  const { shape, items } = await searchAfresh(ctx.db, query, sort, cursor, words);
  storeAnswer(ctx.db, version, key, shape);
  return answerOf(shape, items);
}

/** Without words: the page by the sort's index and the facets from the facet cells, side by side on PostgreSQL. */
async function searchWithoutWords(
  db: Db,
  filter: SearchFilter,
  sort: SearchSort,
  cursor: SearchCursor | null,
  take: number,
): Promise<{ page: SearchRow[]; facets: FacetRows }> {
  const [page, facets] = await Promise.all([selectSearchPage(db, filter, sort, cursor, take), selectFacetsWithoutWords(db, filter)]);
  return { page, facets };
}

function answerOf(shape: SearchShape, items: PageRow[]): SearchResult {
  return { items: items.map(toProductJson), facets: shape.facets, total: shape.total, terms: shape.terms, nextCursor: shape.nextCursor };
}

async function searchAfresh(
  db: Db,
  query: SearchQuery,
  sort: SearchSort,
  cursor: SearchCursor | null,
  queryWords: string[],
): Promise<{ shape: SearchShape; items: PageRow[] }> {
  const words = await lookupWords(db, queryWords);
  const filter: SearchFilter = {
    ...(words.length > 0 ? { tsquery: buildTsquery(words), nameTsquery: buildTsquery(words, 'A') } : {}),
    categories: query.category,
    brands: query.brand,
    minPriceCents: toCents(query.minPrice),
    maxPriceCents: toCents(query.maxPrice),
    maxMoq: query.maxMoq,
    inStock: query.inStock === 'true',
  };
  // With words, one pass over the matches gives page, products and facets (selectWordSearch).
  const search = filter.tsquery === undefined ? searchWithoutWords : selectWordSearch;
  const { page, facets } = await search(db, filter, sort, cursor, query.limit + 1);
  const items = page.slice(0, query.limit);
  const last = items[items.length - 1];
  const nextCursor =
    page.length > query.limit && last ? encodeSearchCursor(sort, { key: last.sortKey === null ? null : Number(last.sortKey), seq: Number(last.seq) }) : null;
  const min = toDollars(facets.minPriceCents);
  const max = toDollars(facets.maxPriceCents);
  const shape: SearchShape = {
    page: items.map((row) => ({ seq: Number(row.seq), sortKey: row.sortKey === null ? null : Number(row.sortKey) })),
    nextCursor,
    facets: {
      categories: facets.categories,
      brands: facets.brands,
      price: min === null || max === null ? null : { min, max },
    },
    total: facets.total,
    terms: matchedTerms(words),
  };
  return { shape, items };
}

/** The six categories whose name has a word starting with each typed word, in their usual order. */
function matchingCategories(words: string[]): string[] {
  return CATEGORIES.filter((category) => {
    const categoryWords = normalizeSearchText(category).split(/[^\p{L}\p{N}]+/u);
    return words.every((w) => categoryWords.some((c) => c.startsWith(w)));
  });
}

/**
 * GET /api/search/suggest: product names whose name has words starting with every typed word, and
 * the categories that match, eight at most. Only when nothing matches is a typo looked up: a
 * half-typed word is the prefix of an indexed word, so it is never "corrected", and the lookup costs
 * a keystroke nothing while names are found. A correction comes first, with the names it finds.
 */
export async function suggest(ctx: { db: Db }, q: string | undefined): Promise<SuggestResult> {
  const words = searchWordsOf(q);
  if (words.length === 0 || words.join('').length < SEARCH_LIMITS.suggestMinChars) return { suggestions: [] };
  const categories: Suggestion[] = matchingCategories(words).map((text) => ({ kind: 'category', text }));
  const nameCount = SEARCH_LIMITS.suggestionCount - Math.min(categories.length, 2);
  const tsquery = buildTsquery(
    words.map((word) => ({ word, isKnown: true, near: [] })),
    'A',
  );
  const names = await selectNameSuggestions(ctx.db, tsquery, nameCount);
  if (names.length === 0 && categories.length === 0) return { suggestions: await correctionOf(ctx.db, words) };
  const suggestions: Suggestion[] = [...names.map((text): Suggestion => ({ kind: 'product', text })), ...categories];
  return { suggestions: suggestions.slice(0, SEARCH_LIMITS.suggestionCount) };
}

/** "Did you mean": each unknown word replaced by its nearest indexed word, if that finds any name. */
async function correctionOf(db: Db, words: string[]): Promise<Suggestion[]> {
  const looked = await lookupWords(db, words);
  if (!looked.some((w) => !w.isKnown && w.near.length > 0)) return [];
  const corrected = looked.map((w) => (w.isKnown ? w.word : (w.near[0] ?? w.word)));
  const names = await selectNameSuggestions(
    db,
    buildTsquery(
      corrected.map((word) => ({ word, isKnown: true, near: [] })),
      'A',
    ),
    SEARCH_LIMITS.suggestionCount - 1,
  );
  if (names.length === 0) return [];
  return [{ kind: 'correction', text: corrected.join(' ') }, ...names.map((text): Suggestion => ({ kind: 'product', text }))];
}
