import {
  CATEGORIES,
  SEARCH_LIMITS,
  effectiveSort,
  normalizeSearchText,
  type SearchQuery,
  type SearchResult,
  type SuggestResult,
  type Suggestion,
} from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { toProductJson } from '../products/product-answer.ts';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor.ts';
import { lookupWords, selectFacets, selectNameSuggestions, selectSearchPage, type SearchFilter } from './search.queries.ts';
import { buildTsquery, matchedTerms, searchWordsOf } from './search-words.ts';

const toCents = (dollars: number | undefined): number | undefined => (dollars === undefined ? undefined : Math.round(dollars * 100));
const toDollars = (cents: number | null): number | null => (cents === null ? null : cents / 100);

/**
 * GET /api/search: open to everyone, like the catalog reads (docs/decisions/003-catalog-api.md).
 * The page and the facets are two independent statements; on PostgreSQL they run side by side.
 */
export async function searchProducts(ctx: { db: Db }, query: SearchQuery): Promise<SearchResult> {
  const sort = effectiveSort(query);
  const cursor = decodeSearchCursor(sort, query.cursor);
  const words = await lookupWords(ctx.db, searchWordsOf(query.q));
  const filter: SearchFilter = {
    ...(words.length > 0 ? { tsquery: buildTsquery(words), nameTsquery: buildTsquery(words, 'A') } : {}),
    categories: query.category,
    brands: query.brand,
    minPriceCents: toCents(query.minPrice),
    maxPriceCents: toCents(query.maxPrice),
    maxMoq: query.maxMoq,
    inStock: query.inStock === 'true',
  };
  const [rows, facets] = await Promise.all([selectSearchPage(ctx.db, filter, sort, cursor, query.limit + 1), selectFacets(ctx.db, filter)]);
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  const nextCursor = rows.length > query.limit && last ? encodeSearchCursor(sort, { key: last.sortKey === null ? null : Number(last.sortKey), seq: last.seq }) : null;
  const min = toDollars(facets.minPriceCents);
  const max = toDollars(facets.maxPriceCents);
  return {
    items: items.map(toProductJson),
    facets: {
      categories: facets.categories,
      brands: facets.brands,
      price: min === null || max === null ? null : { min, max },
    },
    total: facets.total,
    terms: matchedTerms(words),
    nextCursor,
  };
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
 * the categories that match, eight at most. No typo lookup here: it runs on each keystroke, and a
 * half-typed word is a prefix, not a typo.
 */
export async function suggest(ctx: { db: Db }, q: string | undefined): Promise<SuggestResult> {
  const words = searchWordsOf(q);
  if (words.length === 0 || words.join('').length < SEARCH_LIMITS.suggestMinChars) return { suggestions: [] };
  const categories: Suggestion[] = matchingCategories(words).map((text) => ({ kind: 'category', text }));
  const nameCount = SEARCH_LIMITS.suggestionCount - Math.min(categories.length, 2);
  const tsquery = buildTsquery(words.map((word) => ({ word, isKnown: true, near: [] })), 'A');
  const names = await selectNameSuggestions(ctx.db, tsquery, nameCount);
  const suggestions: Suggestion[] = [...names.map((text): Suggestion => ({ kind: 'product', text })), ...categories];
  return { suggestions: suggestions.slice(0, SEARCH_LIMITS.suggestionCount) };
}
