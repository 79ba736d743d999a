import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Notification } from '@bulkcart/contracts/notification';
import { apiGetPage, type ApiPage } from '@/lib/api-client.ts';
import { notificationKeys } from './notification-keys.ts';

/** GET /api/notifications: one page, newest first. */
export function getNotifications(cursor: string | null): Promise<ApiPage<Notification>> {
  return apiGetPage<Notification>(`/notifications${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
}

/** Asked for only while the bell's list is open. */
export function useNotifications(isOpen: boolean) {
  return useInfiniteQuery({
    ...infiniteQueryOptions({
      queryKey: notificationKeys.list,
      queryFn: ({ pageParam }) => getNotifications(pageParam),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextCursor,
    }),
    enabled: isOpen,
    staleTime: 0,
  });
}
