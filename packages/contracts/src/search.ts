import { z } from 'zod';
import { CATEGORIES } from './categories.ts';
import { LIMITS } from './limits.ts';
import type { Product } from './product.ts';

/** Search (issue 17): one schema for the results page's URL and for GET /api/search. */
export const SEARCH_SORTS = ['relevance', 'price_asc', 'price_desc', 'newest', 'rating'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const SEARCH_LIMITS = {
  /** Longer queries are refused; a buyer's search is a few words. */
  queryMax: 1000,
  /** Words of a query that count; the rest are ignored. */
  wordsMax: 8,
  /** A word is cut to this length: no product word is longer. */
  wordMax: 40,
  brandFilterMax: 20,
  brandFacetCount: 20,
  suggestionCount: 8,
  /** Suggestions start at this many characters: one letter matches most of the catalog. */
  suggestMinChars: 2,
} as const;

/** A query parameter given once arrives as a string, given several times as an array. */
function toList(value: unknown): unknown {
  if (value === undefined || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

function blankToUndefined(value: unknown): unknown {
  return value === '' || value === null ? undefined : value;
}

/** Dollars with up to two decimals, as a price is shown; compared in cents on the server. */
const dollars = (label: string) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: `${label} must be a number` })
      .min(0, `${label} must be at least 0`)
      .max(LIMITS.priceMax, `${label} must be at most ${LIMITS.priceMax.toLocaleString('en-US')}`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${label} has at most two decimals`)
      .optional(),
  );

export const searchQuerySchema = z
  .object({
    q: z.preprocess(blankToUndefined, z.string().max(SEARCH_LIMITS.queryMax, `The search must be at most ${SEARCH_LIMITS.queryMax} characters`).optional()),
    category: z.preprocess(toList, z.array(z.enum(CATEGORIES, { error: 'Choose one of the six categories' })).max(CATEGORIES.length)),
    brand: z.preprocess(
      toList,
      z
        .array(z.string().trim().min(1, 'Brand is empty').max(LIMITS.brandMax, `Brand must be at most ${LIMITS.brandMax} characters`))
        .max(SEARCH_LIMITS.brandFilterMax, `At most ${SEARCH_LIMITS.brandFilterMax} brands`),
    ),
    minPrice: dollars('Minimum price'),
    maxPrice: dollars('Maximum price'),
    maxMoq: z.preprocess(
      blankToUndefined,
      z.coerce.number({ error: 'MOQ must be a whole number' }).int('MOQ must be a whole number').min(1, 'MOQ must be at least 1').max(LIMITS.quantityMax).optional(),
    ),
    inStock: z.preprocess(blankToUndefined, z.enum(['true', 'false'], { error: 'inStock is true or false' }).optional()),
    sort: z.preprocess(blankToUndefined, z.enum(SEARCH_SORTS, { error: `Sort is one of ${SEARCH_SORTS.join(', ')}` }).optional()),
    limit: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(LIMITS.pageMax).default(LIMITS.pageDefault)),
    cursor: z.preprocess(blankToUndefined, z.string().max(200).optional()),
  })
  .refine((v) => v.minPrice === undefined || v.maxPrice === undefined || v.minPrice <= v.maxPrice, {
    message: 'Minimum price is above the maximum',
    path: ['maxPrice'],
  });
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** The sort a query gets when none is chosen: relevance for words, newest otherwise. */
export function effectiveSort(query: Pick<SearchQuery, 'q' | 'sort'>): SearchSort {
  const hasWords = query.q !== undefined && splitSearchWords(query.q).length > 0;
  if (query.sort === undefined || (query.sort === 'relevance' && !hasWords)) return hasWords ? 'relevance' : 'newest';
  return query.sort;
}

export const suggestQuerySchema = z.object({
  q: z.preprocess(blankToUndefined, z.string().max(SEARCH_LIMITS.queryMax, `The search must be at most ${SEARCH_LIMITS.queryMax} characters`).optional()),
});

/**
 * The words of a query, lower-cased: letters and digits only, so nothing of it can reach the database
 * as tsquery or LIKE syntax. The browser highlights with the same split.
 */
export function splitSearchWords(q: string): string[] {
  return q
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, SEARCH_LIMITS.wordsMax)
    .map((w) => w.slice(0, SEARCH_LIMITS.wordMax));
}

/**
 * Lower case without accents: the same as the database's search_normalize (migration 0002), which
 * normalises the indexed text; search-normalize.test.ts holds the two to the same answers.
 */
export function normalizeSearchText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øłđħıæœß]/g, (c) => NON_DECOMPOSING[c] ?? c);
}

const NON_DECOMPOSING: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ħ: 'h', ı: 'i', æ: 'a', œ: 'o', ß: 's' };

export interface FacetCount {
  value: string;
  count: number;
}

export interface SearchFacets {
  categories: FacetCount[];
  brands: FacetCount[];
  /** Lowest and highest price (dollars) of the matches, ignoring the price filter; null when none has a price. */
  price: { min: number; max: number } | null;
}

export interface SearchResult {
  items: Product[];
  facets: SearchFacets;
  /** Matches of the whole query (every filter applied). */
  total: number;
  /** The database words the query matched, typo corrections included: what the page highlights. */
  terms: string[];
  nextCursor: string | null;
}

export interface Suggestion {
  kind: 'product' | 'category';
  text: string;
}

export interface SuggestResult {
  suggestions: Suggestion[];
}
