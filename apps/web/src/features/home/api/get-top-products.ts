import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Product } from '@bulkcart/contracts/product';
import { apiGet } from '../../../lib/api-client.ts';

/** GET /api/topproduct: the featured products, open to everyone. */
export function getTopProducts(): Promise<Product[]> {
  return apiGet<Product[]>('/topproduct');
}

// Under the catalog's 'products' prefix, so a purchase or an edit that refreshes the catalog refreshes these too.
export const topProductsQueryOptions = queryOptions({
  queryKey: ['products', 'top'] as const,
  queryFn: getTopProducts,
});

export function useTopProducts() {
  return useQuery(topProductsQueryOptions);
}
