import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Sale, SalesCounts } from '@bulkcart/contracts/order';
import { apiGet, apiGetPage, type ApiPage } from '@/lib/api-client.ts';
import { salesKeys, type DeskFilter } from './order-keys.ts';

/** How often the desk asks again while it is open: a seller sees a new order within seconds. */
export const SALES_POLL_MS = 15_000;

/** GET /api/sales?status=|late=true&cursor=: one page of orders of the seller's products, newest first. */
export function getSales(filter: DeskFilter, cursor: string | null): Promise<ApiPage<Sale>> {
  const query = new URLSearchParams();
  if (filter === 'late') query.set('late', 'true');
  else if (filter) query.set('status', filter);
  if (cursor) query.set('cursor', cursor);
  const text = query.toString();
  return apiGetPage<Sale>(`/sales${text ? `?${text}` : ''}`);
}

export function salesQueryOptions(filter: DeskFilter) {
  return infiniteQueryOptions({
    queryKey: salesKeys.list(filter),
    queryFn: ({ pageParam }) => getSales(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useSales(filter: DeskFilter) {
  return useInfiniteQuery({ ...salesQueryOptions(filter), refetchOnWindowFocus: true, refetchInterval: SALES_POLL_MS });
}

/** GET /api/sales/counts: the seller's orders per status, for the filter tabs. */
export function getSalesCounts(): Promise<SalesCounts> {
  return apiGet<SalesCounts>('/sales/counts');
}

export function useSalesCounts() {
  return useQuery({ ...queryOptions({ queryKey: salesKeys.counts, queryFn: getSalesCounts }), refetchOnWindowFocus: true, refetchInterval: SALES_POLL_MS });
}
