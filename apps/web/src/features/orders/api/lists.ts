import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CartAddAnswer, CreateListInput, SavedList } from '@bulkcart/contracts/cart';
import { apiGet, apiSend, type ApiError } from '@/lib/api-client.ts';
import { cartKeys } from './order-keys.ts';

/** GET /api/lists: the buyer's saved lists with their lines, priced now. */
export function getLists(): Promise<SavedList[]> {
  return apiGet<SavedList[]>('/lists');
}

export function listsQueryOptions() {
  return queryOptions({ queryKey: cartKeys.lists, queryFn: getLists });
}

export function useLists() {
  return useQuery(listsQueryOptions());
}

const listPath = (id: string) => `/lists/${encodeURIComponent(id)}`;

/** Every list write refreshes the lists; sending one to the cart refreshes the cart too (one key prefix). */
function useListWrite<V, R>(write: (variables: V) => Promise<R>, refresh: readonly string[] = cartKeys.lists) {
  const queryClient = useQueryClient();
  return useMutation<R, ApiError, V>({
    mutationFn: write,
    onSettled: () => queryClient.invalidateQueries({ queryKey: refresh }),
  });
}

export function useCreateList() {
  return useListWrite((input: CreateListInput) => apiSend<SavedList>('POST', '/lists', input));
}

export function useSetListLine() {
  return useListWrite(({ listId, productId, quantity }: { listId: string; productId: string; quantity: number }) =>
    apiSend<SavedList>('PUT', `${listPath(listId)}/lines/${encodeURIComponent(productId)}`, { quantity }),
  );
}

export function useDeleteList() {
  return useListWrite((listId: string) => apiSend<{ id: string; deleted: boolean }>('DELETE', listPath(listId)));
}

/** POST /api/lists/{id}/to-cart; refreshes the cart and the lists under their shared ['cart'] prefix. */
export function useListToCart() {
  return useListWrite((listId: string) => apiSend<CartAddAnswer>('POST', `${listPath(listId)}/to-cart`), ['cart']);
}

/** POST /api/order/{id}/reorder: the order's lines into the cart at today's prices. */
export function useReorder() {
  return useListWrite((orderId: string) => apiSend<CartAddAnswer>('POST', `/order/${encodeURIComponent(orderId)}/reorder`), ['cart']);
}
