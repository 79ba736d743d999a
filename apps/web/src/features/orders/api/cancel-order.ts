import { useMutation, useQueryClient, type InfiniteData, type UseMutationOptions } from '@tanstack/react-query';
import { apiSend, type ApiError, type ApiPage } from '../../../lib/api-client.ts';
import type { Order } from '@bulkcart/contracts/order';
import { catalogKeyPrefix, orderKeys } from './order-keys.ts';

export interface CancelledOrder {
  _id: string;
  cancelled: true;
}

/** DELETE /api/order/{id}: the server cancels the order and puts its quantity back in stock. */
export function cancelOrder(id: string): Promise<CancelledOrder> {
  return apiSend<CancelledOrder>('DELETE', `/order/${encodeURIComponent(id)}`);
}

function withoutOrder(data: InfiniteData<ApiPage<Order>> | undefined, id: string) {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((o) => o._id !== id) })) };
}

type Callbacks = Pick<UseMutationOptions<CancelledOrder, ApiError, string>, 'onSuccess' | 'onError'>;

/**
 * Callbacks given here belong to the mutation itself: a cancelled row leaves the list (and unmounts)
 * at once, which would silence callbacks passed to mutate().
 */
export function useCancelOrder({ onSuccess, onError }: Callbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation<CancelledOrder, ApiError, string>({
    mutationFn: cancelOrder,
    onError,
    onSuccess: (...args) => {
      const [, id] = args;
      void onSuccess?.(...args);
      // Gone from the list at once; the refetch below then confirms it from the server.
      queryClient.setQueriesData<InfiniteData<ApiPage<Order>>>({ queryKey: orderKeys.all }, (data) => withoutOrder(data, id));
      void queryClient.invalidateQueries({ queryKey: catalogKeyPrefix });
    },
    // Also after a failure: a 404 usually means it was cancelled elsewhere, and the list should say so.
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}
