import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Order } from '@bulkcart/contracts/order';
import { apiGetPage, type ApiPage } from '../../../lib/api-client.ts';
import { orderKeys } from './order-keys.ts';

/** GET /api/orders/{email}: one page of the buyer's live orders, newest first. */
export function getOrders(email: string, cursor: string | null): Promise<ApiPage<Order>> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return apiGetPage<Order>(`/orders/${encodeURIComponent(email)}${query}`);
}

export function ordersQueryOptions(email: string) {
  return infiniteQueryOptions({
    queryKey: orderKeys.list(email),
    queryFn: ({ pageParam }) => getOrders(email, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: email !== '',
  });
}

export function useOrders(email: string) {
  return useInfiniteQuery(ordersQueryOptions(email));
}
