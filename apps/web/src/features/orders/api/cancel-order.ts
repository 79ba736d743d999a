import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { apiSend, type ApiError } from '@/lib/api-client.ts';
import type { CancelledOrder } from '@bulkcart/contracts/order';
import { catalogKeyPrefix, notificationKeyPrefix, orderKeys } from './order-keys.ts';

/** DELETE /api/order/{id}: while the order is placed, the server cancels it and puts its quantity back in stock. */
export function cancelOrder(id: string): Promise<CancelledOrder> {
  return apiSend<CancelledOrder>('DELETE', `/order/${encodeURIComponent(id)}`);
}

type Callbacks = Pick<UseMutationOptions<CancelledOrder, ApiError, string>, 'onSuccess' | 'onError'>;

/**
 * Callbacks given here belong to the mutation itself, so they still run when the confirm dialog
 * that started it has closed meanwhile.
 */
export function useCancelOrder({ onSuccess, onError }: Callbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation<CancelledOrder, ApiError, string>({
    mutationFn: cancelOrder,
    onError,
    onSuccess: (...args) => {
      void onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: catalogKeyPrefix });
    },
    // Also after a failure: a 409 means the seller acted meanwhile, and the list should say so.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: notificationKeyPrefix });
      return queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
  });
}
