import { useQuery } from '@tanstack/react-query';
import type { OpenOrdersCount } from '@bulkcart/contracts/order';
import { apiGet } from '@/lib/api-client.ts';
import { productKeys } from './product-keys.ts';

/** GET /api/product/{id}/open-orders: the owner's placed, accepted and shipped orders of the product. */
export function getOpenOrders(id: string): Promise<OpenOrdersCount> {
  return apiGet<OpenOrdersCount>(`/product/${encodeURIComponent(id)}/open-orders`);
}

export function useOpenOrders(id: string) {
  return useQuery({ queryKey: productKeys.openOrders(id), queryFn: () => getOpenOrders(id), staleTime: 0 });
}
