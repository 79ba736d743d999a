import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { SearchResult } from '@bulkcart/contracts/search';
import { apiGet } from '@/lib/api-client.ts';
import { searchApiPath, toSearchParams, type SearchChoices } from '@/features/products/lib/search-url.ts';
import { productKeys } from './product-keys.ts';

/** GET /api/search: one page of results with the facets of the whole query. */
export function searchProducts(choices: SearchChoices, cursor: string | null): Promise<SearchResult> {
  return apiGet<SearchResult>(searchApiPath(choices, cursor));
}

export function searchQueryOptions(choices: SearchChoices) {
  return infiniteQueryOptions({
    // Under the products key, so a purchase or an edit that refreshes products refreshes results too.
    queryKey: [...productKeys.all, 'search', toSearchParams(choices).toString()],
    queryFn: ({ pageParam }) => searchProducts(choices, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

export function useSearchProducts(choices: SearchChoices) {
  return useInfiniteQuery(searchQueryOptions(choices));
}
