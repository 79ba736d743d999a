import * as z from 'zod/mini';
import { cursorSchema } from './cursor.ts';
import { CATEGORIES } from './categories.ts';
import { LIMITS } from './limits.ts';
import { SEARCH_LIMITS, SEARCH_SORTS, splitSearchWords, type SearchSort } from './search-text.ts';

/*
 * Search's query (docs/decisions/009-search.md): one schema for the results page's URL and for GET
 * /api/search. Written with zod/mini, zod's functional API over the same core, so the results page
 * loads zod's core without the classic API and builds no classic methods on every node
 * (docs/decisions/031-search-query-zod-mini.md). `z.pipe(z.transform(f), …)` is classic's
 * `z.preprocess(f, …)`.
 */

/**
 * A query parameter given once arrives as a string, given several times as an array. (The lists'
 * default `[]` is never reached; it tells the API description that the parameter is optional.)
 */
function toList(value: unknown): unknown {
  if (value === undefined || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** A parameter left blank (`?sort=`) is one not given. */
function blankToUndefined(value: unknown): unknown {
  return value === '' || value === null ? undefined : value;
}

/** The search words (also the suggestions' `q`): at most `queryMax` characters; blank is none. */
export const searchWordsSchema = z.pipe(
  z.transform(blankToUndefined),
  z.optional(z.string().check(z.maxLength(SEARCH_LIMITS.queryMax, `The search must be at most ${SEARCH_LIMITS.queryMax} characters`))),
);

/** Dollars with up to two decimals, as a price is shown; compared in cents on the server. */
const dollars = (label: string) =>
  z.pipe(
    z.transform(blankToUndefined),
    z.optional(
      z.coerce.number({ error: `${label} must be a number` }).check(
        z.minimum(0, `${label} must be at least 0`),
        z.maximum(LIMITS.priceMax, `${label} must be at most ${LIMITS.priceMax.toLocaleString('en-US')}`),
        z.refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${label} has at most two decimals`),
      ),
    ),
  );

export const searchQuerySchema = z
  .object({
    q: searchWordsSchema,
    category: z.pipe(
      z.transform(toList),
      z._default(z.array(z.enum(CATEGORIES, { error: 'Choose one of the six categories' })).check(z.maxLength(CATEGORIES.length)), []),
    ),
    brand: z.pipe(
      z.transform(toList),
      z._default(
        z
          .array(
            z.string().check(z.trim(), z.minLength(1, 'Brand is empty'), z.maxLength(LIMITS.brandMax, `Brand must be at most ${LIMITS.brandMax} characters`)),
          )
          .check(z.maxLength(SEARCH_LIMITS.brandFilterMax, `At most ${SEARCH_LIMITS.brandFilterMax} brands`)),
        [],
      ),
    ),
    minPrice: dollars('Minimum price'),
    maxPrice: dollars('Maximum price'),
    maxMoq: z.pipe(
      z.transform(blankToUndefined),
      z.optional(
        z.coerce
          .number({ error: 'MOQ must be a whole number' })
          .check(z.int('MOQ must be a whole number'), z.minimum(1, 'MOQ must be at least 1'), z.maximum(LIMITS.quantityMax)),
      ),
    ),
    inStock: z.pipe(z.transform(blankToUndefined), z.optional(z.enum(['true', 'false'], { error: 'inStock is true or false' }))),
    sort: z.pipe(z.transform(blankToUndefined), z.optional(z.enum(SEARCH_SORTS, { error: `Sort is one of ${SEARCH_SORTS.join(', ')}` }))),
    limit: z.pipe(z.transform(blankToUndefined), z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(LIMITS.pageMax)), LIMITS.pageDefault)),
    cursor: z.pipe(z.transform(blankToUndefined), z.optional(cursorSchema)),
  })
  .check(
    z.refine((v) => v.minPrice === undefined || v.maxPrice === undefined || v.minPrice <= v.maxPrice, {
      message: 'Minimum price is above the maximum',
      path: ['maxPrice'],
    }),
  );
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** The sort a query gets when none is chosen: relevance for words, newest otherwise. */
export function effectiveSort(query: Pick<SearchQuery, 'q' | 'sort'>): SearchSort {
  const hasWords = query.q !== undefined && splitSearchWords(query.q).length > 0;
  if (query.sort === undefined || (query.sort === 'relevance' && !hasWords)) return hasWords ? 'relevance' : 'newest';
  return query.sort;
}
