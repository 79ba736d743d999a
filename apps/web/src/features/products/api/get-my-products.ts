import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Product } from '@bulkcart/contracts/product';
import { apiGetPage, type ApiPage } from '../../../lib/api-client.ts';
import { productKeys } from './product-keys.ts';

/** GET /api/products/{email}: the signed-in seller's own listings (the server refuses other emails). */
export function getMyProducts(email: string, cursor: string | null): Promise<ApiPage<Product>> {
  const query = cursor ? `?${new URLSearchParams({ cursor }).toString()}` : '';
  return apiGetPage<Product>(`/products/${encodeURIComponent(email)}${query}`);
}

export function myProductsQueryOptions(email: string) {
  return infiniteQueryOptions({
    queryKey: productKeys.mine(email),
    queryFn: ({ pageParam }) => getMyProducts(email, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

export function useMyProducts(email: string) {
  return useInfiniteQuery(myProductsQueryOptions(email));
}
