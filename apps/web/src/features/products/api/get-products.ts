import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Product } from '@bulkcart/contracts/product';
import { apiGetPage, type ApiPage } from '../../../lib/api-client.ts';
import { productKeys, type ProductListFilter } from './product-keys.ts';

/** GET /api/allproduct: one page of the catalog, filtered on the server. */
export function getProducts(filter: ProductListFilter, cursor: string | null): Promise<ApiPage<Product>> {
  const query = new URLSearchParams();
  if (filter.category) query.set('category', filter.category);
  if (filter.available) query.set('available', 'true');
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return apiGetPage<Product>(`/allproduct${search ? `?${search}` : ''}`);
}

export function productsQueryOptions(filter: ProductListFilter) {
  return infiniteQueryOptions({
    queryKey: productKeys.list(filter),
    queryFn: ({ pageParam }) => getProducts(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

export function useProducts(filter: ProductListFilter) {
  return useInfiniteQuery(productsQueryOptions(filter));
}
