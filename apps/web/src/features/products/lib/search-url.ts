import { searchQuerySchema, type SearchQuery } from '@bulkcart/contracts/search-query';
import { SEARCH_KEYS, SEARCH_LIST_KEYS, searchApiPathOf } from './search-api-path.ts';

export type SearchChoices = Omit<SearchQuery, 'limit' | 'cursor'>;

/**
 * The page's choices from its URL, read by the same schema the server uses: a link or a reload shows
 * the same results, and a hand-edited value the schema refuses is dropped rather than breaking the page.
 */
export function readSearchChoices(params: URLSearchParams): SearchChoices {
  const raw: Record<string, unknown> = {};
  for (const key of SEARCH_KEYS) {
    if ((SEARCH_LIST_KEYS as readonly string[]).includes(key)) raw[key] = params.getAll(key);
    else if (params.get(key) !== null) raw[key] = params.get(key);
  }
  const parsed = searchQuerySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const invalid = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  for (const key of invalid) delete raw[key];
  const retried = searchQuerySchema.safeParse(raw);
  return retried.success ? retried.data : searchQuerySchema.parse({});
}

/** The URL (and API) parameters of a set of choices, in SEARCH_KEYS order; empty choices leave no key behind. */
export function toSearchParams(choices: Partial<SearchChoices>): URLSearchParams {
  const params = new URLSearchParams();
  if (choices.q) params.set('q', choices.q);
  for (const value of choices.category ?? []) params.append('category', value);
  for (const value of choices.brand ?? []) params.append('brand', value);
  if (choices.minPrice !== undefined) params.set('minPrice', String(choices.minPrice));
  if (choices.maxPrice !== undefined) params.set('maxPrice', String(choices.maxPrice));
  if (choices.maxMoq !== undefined) params.set('maxMoq', String(choices.maxMoq));
  if (choices.inStock === 'true') params.set('inStock', 'true');
  if (choices.sort) params.set('sort', choices.sort);
  return params;
}

/** The API path of one page of results. */
export function searchApiPath(choices: SearchChoices, cursor: string | null): string {
  return searchApiPathOf(toSearchParams(choices), cursor);
}
