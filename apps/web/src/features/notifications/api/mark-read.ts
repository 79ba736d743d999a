import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarkedRead, Notification } from '@bulkcart/contracts/notification';
import { apiSend, type ApiError } from '@/lib/api-client.ts';
import { notificationKeys } from './notification-keys.ts';

/** POST /api/notifications/{id}/read. */
export function markRead(id: string): Promise<Notification> {
  return apiSend<Notification>('POST', `/notifications/${encodeURIComponent(id)}/read`);
}

/** POST /api/notifications/read-all. */
export function markAllRead(): Promise<MarkedRead> {
  return apiSend<MarkedRead>('POST', '/notifications/read-all');
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation<Notification, ApiError, string>({
    mutationFn: markRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation<MarkedRead, ApiError, void>({
    mutationFn: markAllRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
