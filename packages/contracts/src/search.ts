import { z } from 'zod';
import { cursorSchema } from './cursor.ts';
import { CATEGORIES } from './categories.ts';
import { LIMITS } from './limits.ts';
import { productSchema } from './product.ts';
import { SEARCH_LIMITS, SEARCH_SORTS, splitSearchWords, type SearchSort } from './search-text.ts';

/**
 * A query parameter given once arrives as a string, given several times as an array. (The lists'
 * `.default([])` is never reached; it tells the API description that the parameter is optional.)
 */
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

/** Search (docs/decisions/009-search.md): one schema for the results page's URL and for GET /api/search. */
export const searchQuerySchema = z
  .object({
    q: z.preprocess(blankToUndefined, z.string().max(SEARCH_LIMITS.queryMax, `The search must be at most ${SEARCH_LIMITS.queryMax} characters`).optional()),
    category: z.preprocess(
      toList,
      z
        .array(z.enum(CATEGORIES, { error: 'Choose one of the six categories' }))
        .max(CATEGORIES.length)
        .default([]),
    ),
    brand: z.preprocess(
      toList,
      z
        .array(z.string().trim().min(1, 'Brand is empty').max(LIMITS.brandMax, `Brand must be at most ${LIMITS.brandMax} characters`))
        .max(SEARCH_LIMITS.brandFilterMax, `At most ${SEARCH_LIMITS.brandFilterMax} brands`)
        .default([]),
    ),
    minPrice: dollars('Minimum price'),
    maxPrice: dollars('Maximum price'),
    maxMoq: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: 'MOQ must be a whole number' })
        .int('MOQ must be a whole number')
        .min(1, 'MOQ must be at least 1')
        .max(LIMITS.quantityMax)
        .optional(),
    ),
    inStock: z.preprocess(blankToUndefined, z.enum(['true', 'false'], { error: 'inStock is true or false' }).optional()),
    sort: z.preprocess(blankToUndefined, z.enum(SEARCH_SORTS, { error: `Sort is one of ${SEARCH_SORTS.join(', ')}` }).optional()),
    limit: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(LIMITS.pageMax).default(LIMITS.pageDefault)),
    cursor: z.preprocess(blankToUndefined, cursorSchema.optional()),
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

const facetCountSchema = z.object({ value: z.string(), count: z.int() });
export type FacetCount = z.infer<typeof facetCountSchema>;

export const searchFacetsSchema = z.object({
  categories: z.array(facetCountSchema),
  brands: z.array(facetCountSchema),
  price: z
    .object({ min: z.number(), max: z.number() })
    .nullable()
    .describe('Lowest and highest price (dollars) of the matches, ignoring the price filter; null when none has a price'),
});
export type SearchFacets = z.infer<typeof searchFacetsSchema>;

/**
 * GET /api/search's answer. The server's serialiser is compiled from this schema (an answer carries
 * exactly these fields) and /api/openapi.json shows it.
 */
export const searchResultSchema = z.object({
  items: z.array(productSchema),
  facets: searchFacetsSchema,
  total: z.int().describe('Matches of the whole query (every filter applied)'),
  terms: z.array(z.string()).describe('The database words the query matched, typo corrections included: what the page highlights'),
  nextCursor: z.string().nullable(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** `correction`: the typed words with a typo replaced by the nearest indexed word, offered first when nothing matched as typed. */
export const suggestionSchema = z.object({ kind: z.enum(['product', 'category', 'correction']), text: z.string() });
export type Suggestion = z.infer<typeof suggestionSchema>;

/** GET /api/search/suggest's answer. */
export const suggestResultSchema = z.object({ suggestions: z.array(suggestionSchema) });
export type SuggestResult = z.infer<typeof suggestResultSchema>;
