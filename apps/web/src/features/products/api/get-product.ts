import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Product } from '@bulkcart/contracts/product';
import { apiGet } from '@/lib/api-client.ts';
import { productKeys } from './product-keys.ts';

/** GET /api/product/{id}: one product, for the detail and update pages. */
export function getProduct(id: string): Promise<Product> {
  return apiGet<Product>(`/product/${encodeURIComponent(id)}`);
}

export function productQueryOptions(id: string) {
  return queryOptions({
    queryKey: productKeys.detail(id),
    queryFn: () => getProduct(id),
  });
}

export function useProduct(id: string) {
  return useQuery(productQueryOptions(id));
}
