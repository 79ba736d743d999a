import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Order } from '@bulkcart/contracts/order';
import { apiGetPage, type ApiPage } from '@/lib/api-client.ts';
import { orderKeys } from './order-keys.ts';

/** Which of the buyer's orders: every one but the cancelled (the spec's list), or the cancelled ones. */
export type OrdersShown = 'live' | 'cancelled';

/** GET /api/orders/{email}: one page of the buyer's orders, newest first. */
export function getOrders(email: string, shown: OrdersShown, cursor: string | null): Promise<ApiPage<Order>> {
  const query = new URLSearchParams();
  if (shown === 'cancelled') query.set('status', 'cancelled');
  if (cursor) query.set('cursor', cursor);
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return apiGetPage<Order>(`/orders/${encodeURIComponent(email)}${search}`);
}

export function ordersQueryOptions(email: string, shown: OrdersShown) {
  return infiniteQueryOptions({
    queryKey: orderKeys.list(email, shown),
    queryFn: ({ pageParam }) => getOrders(email, shown, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: email !== '',
  });
}

export function useOrders(email: string, shown: OrdersShown = 'live') {
  return useInfiniteQuery(ordersQueryOptions(email, shown));
}
