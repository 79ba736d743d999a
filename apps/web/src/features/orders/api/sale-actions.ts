import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AcceptOrderInput, AcceptOrdersAnswer, AcceptOrdersInput, DeclineOrderInput, Sale, ShipOrderInput } from '@bulkcart/contracts/order';
import { apiSend, type ApiError } from '@/lib/api-client.ts';
import { catalogKeyPrefix, notificationKeyPrefix, salesKeys } from './order-keys.ts';

/** A seller's move on one order (POST /api/sales/{id}/accept | decline | ship | deliver). */
export type SaleAction =
  | { kind: 'accept'; input: AcceptOrderInput }
  | { kind: 'decline'; input: DeclineOrderInput }
  | { kind: 'ship'; input: ShipOrderInput }
  | { kind: 'deliver' };

export function actOnSale(id: string, action: SaleAction): Promise<Sale> {
  const body = action.kind === 'deliver' ? undefined : action.input;
  return apiSend<Sale>('POST', `/sales/${encodeURIComponent(id)}/${action.kind}`, body);
}

interface Variables {
  id: string;
  action: SaleAction;
}

/** What any move changes: the desk's lists and counts, and the bell (the buyer is told). */
function refreshDesk(queryClient: ReturnType<typeof useQueryClient>) {
  void queryClient.invalidateQueries({ queryKey: notificationKeyPrefix });
  return queryClient.invalidateQueries({ queryKey: salesKeys.all });
}

/** One hook for the four moves: each refreshes the desk's lists and counts (and stock, for a decline). */
export function useSaleAction() {
  const queryClient = useQueryClient();
  return useMutation<Sale, ApiError, Variables>({
    mutationFn: ({ id, action }) => actOnSale(id, action),
    onSettled: (_order, _error, { action }) => {
      if (action.kind === 'decline') void queryClient.invalidateQueries({ queryKey: catalogKeyPrefix });
      return refreshDesk(queryClient);
    },
  });
}

/** POST /api/sales/accept: the selected placed orders, one ship-by date. */
export function useAcceptSales() {
  const queryClient = useQueryClient();
  return useMutation<AcceptOrdersAnswer, ApiError, AcceptOrdersInput>({
    mutationFn: (input) => apiSend<AcceptOrdersAnswer>('POST', '/sales/accept', input),
    onSettled: () => refreshDesk(queryClient),
  });
}
