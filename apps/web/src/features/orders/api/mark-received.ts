import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '@bulkcart/contracts/order';
import { apiSend, type ApiError } from '@/lib/api-client.ts';
import { notificationKeyPrefix, orderKeys } from './order-keys.ts';

/** POST /api/order/{id}/received: the buyer confirms a shipped order arrived. */
export function markReceived(id: string): Promise<Order> {
  return apiSend<Order>('POST', `/order/${encodeURIComponent(id)}/received`);
}

export function useMarkReceived() {
  const queryClient = useQueryClient();
  return useMutation<Order, ApiError, string>({
    mutationFn: markReceived,
    onSuccess: (order) => queryClient.setQueryData(orderKeys.detail(order._id), { order, side: 'buyer' as const }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: notificationKeyPrefix });
      return queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
  });
}
