import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Address } from '@bulkcart/contracts/address';
import type { ShipToAnswer } from '@bulkcart/contracts/order';
import { apiGet, apiSend, type ApiError } from '@/lib/api-client.ts';
import { orderKeys } from './order-keys.ts';

/** GET /api/account/ship-to: the buyer's saved default address, or null. */
export function getShipTo(): Promise<ShipToAnswer> {
  return apiGet<ShipToAnswer>('/account/ship-to');
}

/** PUT /api/account/ship-to: saves the default address for the next checkout. */
export function saveShipTo(shipTo: Address): Promise<ShipToAnswer> {
  return apiSend<ShipToAnswer>('PUT', '/account/ship-to', shipTo);
}

export function shipToQueryOptions() {
  return queryOptions({ queryKey: orderKeys.shipTo, queryFn: getShipTo });
}

export function useShipTo() {
  return useQuery(shipToQueryOptions());
}

export function useSaveShipTo() {
  const queryClient = useQueryClient();
  return useMutation<ShipToAnswer, ApiError, Address>({
    mutationFn: saveShipTo,
    onSuccess: (answer) => queryClient.setQueryData(orderKeys.shipTo, answer),
  });
}
