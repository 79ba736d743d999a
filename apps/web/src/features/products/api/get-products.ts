import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Product } from '@bulkcart/contracts/product';
import { apiGetPage, type ApiPage } from '@/lib/api-client.ts';
import { productKeys, type ProductListFilter } from './product-keys.ts';
import { productsPath } from './products-path.ts';

/** GET /api/allproduct: one page of the catalog, filtered on the server; the first page is short. */
export function getProducts(filter: ProductListFilter, cursor: string | null): Promise<ApiPage<Product>> {
  return apiGetPage<Product>(productsPath(filter, cursor));
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
