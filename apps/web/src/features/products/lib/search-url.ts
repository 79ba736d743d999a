import { searchQuerySchema, type SearchQuery } from '@bulkcart/contracts/search';
import { LIMITS } from '@bulkcart/contracts/limits';

/** The URL keys of the results page, the same names as GET /api/search's parameters. */
const LIST_KEYS = ['category', 'brand'] as const;
const SINGLE_KEYS = ['q', 'minPrice', 'maxPrice', 'maxMoq', 'inStock', 'sort'] as const;

export type SearchChoices = Omit<SearchQuery, 'limit' | 'cursor'>;

/**
 * The page's choices from its URL, read by the same schema the server uses: a link or a reload shows
 * the same results, and a hand-edited value the schema refuses is dropped rather than breaking the page.
 */
export function readSearchChoices(params: URLSearchParams): SearchChoices {
  const raw: Record<string, unknown> = {};
  for (const key of LIST_KEYS) raw[key] = params.getAll(key);
  for (const key of SINGLE_KEYS) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  const parsed = searchQuerySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const invalid = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  for (const key of invalid) delete raw[key];
  const retried = searchQuerySchema.safeParse(raw);
  return retried.success ? retried.data : searchQuerySchema.parse({});
}

/** The URL (and API) parameters of a set of choices; empty choices leave no key behind. */
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

/** The API path of one page of results; the first page is short, like the catalog's (decision 005). */
export function searchApiPath(choices: SearchChoices, cursor: string | null): string {
  const params = toSearchParams(choices);
  params.set('limit', String(cursor ? LIMITS.pageDefault : LIMITS.firstPage));
  if (cursor) params.set('cursor', cursor);
  return `/search?${params.toString()}`;
}
