import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Product, StockState } from '@bulkcart/contracts/product';
import { apiGetPage, type ApiPage } from '@/lib/api-client.ts';
import { productKeys } from './product-keys.ts';

/** What My Product asks for: a search, a stock state, and how many a page holds. */
export interface MyProductsFilter {
  q?: string;
  stock?: StockState;
  limit: number;
}

/** GET /api/products/{email}?q&stock&limit: the signed-in seller's own listings (the server refuses other emails). */
export function getMyProducts(email: string, filter: MyProductsFilter, cursor: string | null): Promise<ApiPage<Product>> {
  const params = new URLSearchParams({ limit: String(filter.limit) });
  if (filter.q) params.set('q', filter.q);
  if (filter.stock) params.set('stock', filter.stock);
  if (cursor) params.set('cursor', cursor);
  return apiGetPage<Product>(`/products/${encodeURIComponent(email)}?${params.toString()}`);
}

export function myProductsQueryOptions(email: string, filter: MyProductsFilter) {
  return infiniteQueryOptions({
    queryKey: [...productKeys.mine(email), filter] as const,
    queryFn: ({ pageParam }) => getMyProducts(email, filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

export function useMyProducts(email: string, filter: MyProductsFilter) {
  return useInfiniteQuery(myProductsQueryOptions(email, filter));
}
