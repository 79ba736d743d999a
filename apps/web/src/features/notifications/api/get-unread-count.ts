import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UnreadCount } from '@bulkcart/contracts/notification';
import { apiGet } from '@/lib/api-client.ts';
import { notificationKeys } from './notification-keys.ts';

/** How often the bell asks while the tab is visible: a seller learns of an order within seconds. */
export const UNREAD_POLL_MS = 10_000;

/** GET /api/notifications/unread-count. */
export function getUnreadCount(): Promise<UnreadCount> {
  return apiGet<UnreadCount>('/notifications/unread-count');
}

export function useUnreadCount() {
  return useQuery({
    ...queryOptions({ queryKey: notificationKeys.unread, queryFn: getUnreadCount }),
    staleTime: 0,
    refetchInterval: UNREAD_POLL_MS,
    // A hidden tab does not poll; coming back to it asks at once.
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });
}
