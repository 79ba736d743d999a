import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductSeller } from '@bulkcart/contracts/seller';
import { apiGet } from '@/lib/api-client.ts';
import { productKeys } from './product-keys.ts';

/** GET /api/product/{id}/seller: who sells the product and their minimum order value. */
export function getProductSeller(id: string): Promise<ProductSeller> {
  return apiGet<ProductSeller>(`/product/${encodeURIComponent(id)}/seller`);
}

export function useProductSeller(id: string) {
  return useQuery(queryOptions({ queryKey: productKeys.seller(id), queryFn: () => getProductSeller(id) }));
}
