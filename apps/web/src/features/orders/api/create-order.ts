import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import type { CreateOrderInput, Order } from '@bulkcart/contracts/order';
import { apiSend, type ApiError } from '@/lib/api-client.ts';
import { catalogKeyPrefix, orderKeys } from './order-keys.ts';

export interface CreateOrderVariables {
  input: CreateOrderInput;
  /** One per purchase intent (dialog opening and quantity): a retried or doubled Buy makes one order. */
  idempotencyKey: string;
}

/** POST /api/order: the whole purchase in one call; the server checks, reduces stock and records. */
export function createOrder({ input, idempotencyKey }: CreateOrderVariables): Promise<Order> {
  return apiSend<Order>('POST', '/order', input, { 'idempotency-key': idempotencyKey });
}

/** A fresh Idempotency-Key. randomUUID exists only on secure origins; plain-http LAN hosts get the fallback. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

type Callbacks = Pick<UseMutationOptions<Order, ApiError, CreateOrderVariables>, 'onSuccess' | 'onError'>;

/**
 * Callbacks given here belong to the mutation itself, so they still run when the dialog that started
 * it was closed meanwhile (a purchase never finishes silently).
 */
export function useCreateOrder({ onSuccess, onError }: Callbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation<Order, ApiError, CreateOrderVariables>({
    mutationFn: createOrder,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: catalogKeyPrefix });
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      return onSuccess?.(...args);
    },
    onError: (...args) => {
      // A refusal (stock, MOQ) means what the page shows is out of date.
      void queryClient.invalidateQueries({ queryKey: catalogKeyPrefix });
      return onError?.(...args);
    },
  });
}
