import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CheckoutAnswer, CheckoutInput } from '@bulkcart/contracts/cart';
import { apiSend, type ApiError } from '@/lib/api-client.ts';
import { cartKeys, catalogKeyPrefix, notificationKeyPrefix, orderKeys } from './order-keys.ts';

export interface CheckoutVariables {
  input: CheckoutInput;
  /** One per checkout intent (total, PO number, address): a retried Confirm places one set of orders. */
  idempotencyKey: string;
}

/** POST /api/checkout: one order per seller, all or nothing. */
export function checkout({ input, idempotencyKey }: CheckoutVariables): Promise<CheckoutAnswer> {
  return apiSend<CheckoutAnswer>('POST', '/checkout', input, { 'idempotency-key': idempotencyKey });
}

export function useCheckout() {
  const queryClient = useQueryClient();
  return useMutation<CheckoutAnswer, ApiError, CheckoutVariables>({
    mutationFn: checkout,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      void queryClient.invalidateQueries({ queryKey: catalogKeyPrefix });
      void queryClient.invalidateQueries({ queryKey: notificationKeyPrefix });
    },
    // Placed or refused, the cart changed or says why: read it again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKeys.cart }),
  });
}
