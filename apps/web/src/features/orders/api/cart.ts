import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddCartLinesInput, Cart, CartAddAnswer } from '@bulkcart/contracts/cart';
import { apiGet, apiSend, type ApiError } from '@/lib/api-client.ts';
import { cartKeys } from './order-keys.ts';

/** GET /api/cart: the buyer's cart, priced as the checkout would charge it now. */
export function getCart(): Promise<Cart> {
  return apiGet<Cart>('/cart');
}

export function cartQueryOptions() {
  return queryOptions({ queryKey: cartKeys.cart, queryFn: getCart });
}

export function useCart() {
  return useQuery(cartQueryOptions());
}

/** PUT /api/cart/lines/{productId}; 0 removes the line. Answers the whole cart. */
export function setCartLine({ productId, quantity }: { productId: string; quantity: number }): Promise<Cart> {
  return apiSend<Cart>('PUT', `/cart/lines/${encodeURIComponent(productId)}`, { quantity });
}

/** DELETE /api/cart/lines/{productId}. */
export function removeCartLine(productId: string): Promise<Cart> {
  return apiSend<Cart>('DELETE', `/cart/lines/${encodeURIComponent(productId)}`);
}

/** POST /api/cart/lines: rows by product or SKU, or pasted text; each row answered on its own. */
export function addCartLines(input: AddCartLinesInput): Promise<CartAddAnswer> {
  return apiSend<CartAddAnswer>('POST', '/cart/lines', input);
}

/** Every change answers the new cart: it replaces the cached one (and the navbar's count with it). */
function useCartWrite<V>(write: (variables: V) => Promise<Cart>) {
  const queryClient = useQueryClient();
  return useMutation<Cart, ApiError, V>({
    mutationFn: write,
    onSuccess: (cart) => queryClient.setQueryData(cartKeys.cart, cart),
    // A refusal may mean the product changed: the cart shown should say how.
    onError: () => queryClient.invalidateQueries({ queryKey: cartKeys.cart }),
  });
}

export function useSetCartLine() {
  return useCartWrite(setCartLine);
}

export function useRemoveCartLine() {
  return useCartWrite(removeCartLine);
}

export function useAddCartLines() {
  const queryClient = useQueryClient();
  return useMutation<CartAddAnswer, ApiError, AddCartLinesInput>({
    mutationFn: addCartLines,
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKeys.cart }),
  });
}
