import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Order } from '@bulkcart/contracts/order';
import { ApiError, apiGet } from '@/lib/api-client.ts';
import { orderKeys } from './order-keys.ts';

export interface OrderSeen {
  order: Order;
  /** Which side the signed-in user is on: the buyer (GET /api/order/{id}) or the seller (GET /api/sales/{id}). */
  side: 'buyer' | 'seller';
}

/**
 * One order as its buyer sees it, else as its seller does: a notification links to /orders/{id}
 * for either side (it does not say which), and each side's endpoint answers 404 to the other.
 */
export async function getOrder(id: string): Promise<OrderSeen> {
  const path = encodeURIComponent(id);
  try {
    return { order: await apiGet<Order>(`/order/${path}`), side: 'buyer' };
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    return { order: await apiGet<Order>(`/sales/${path}`), side: 'seller' };
  }
}

export function orderQueryOptions(id: string) {
  return queryOptions({ queryKey: orderKeys.detail(id), queryFn: () => getOrder(id) });
}

export function useOrder(id: string) {
  // A buyer waiting for the seller sees the new status when they come back to the tab.
  return useQuery({ ...orderQueryOptions(id), refetchOnWindowFocus: true });
}
