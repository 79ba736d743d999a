import { LIMITS } from '@bulkcart/contracts/limits';

/**
 * The results page's URL keys (GET /api/search's own names) in the order its links and API paths
 * spell them. Kept free of the search schema (zod), so the frame can build the first page's path
 * before the page's code has loaded (app/first-requests.ts).
 */
export const SEARCH_LIST_KEYS = ['category', 'brand'] as const;
export const SEARCH_KEYS = ['q', 'category', 'brand', 'minPrice', 'maxPrice', 'maxMoq', 'inStock', 'sort'] as const;

/** The API path of one page of results for these URL parameters; the first page is short, like the catalog's (decision 005). */
export function searchApiPathOf(params: URLSearchParams, cursor: string | null): string {
  const api = new URLSearchParams(params);
  api.set('limit', String(cursor ? LIMITS.pageDefault : LIMITS.firstPage));
  if (cursor) api.set('cursor', cursor);
  return `/search?${api.toString()}`;
}

/**
 * What the page will ask for first, from its URL as typed: each key in order, blanks left out. The page
 * itself reads the URL through the schema first; where that changes a value (a hand-edited price, an
 * unknown sort), its path differs and the early request is simply not used.
 */
export function firstSearchApiPath(search: URLSearchParams): string {
  const params = new URLSearchParams();
  for (const key of SEARCH_KEYS) {
    const values = (SEARCH_LIST_KEYS as readonly string[]).includes(key) ? search.getAll(key) : [search.get(key) ?? ''];
    for (const value of values) if (value !== '') params.append(key, value);
  }
  return searchApiPathOf(params, null);
}
