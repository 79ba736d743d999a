import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SellerSettings } from '@bulkcart/contracts/seller';
import { apiGet, apiSend, type ApiError } from '@/lib/api-client.ts';

const key = ['seller', 'settings'] as const;

/** GET /api/seller/settings: the seller's own minimum order value. */
export function useSellerSettings() {
  return useQuery(queryOptions({ queryKey: key, queryFn: () => apiGet<SellerSettings>('/seller/settings') }));
}

/** PUT /api/seller/settings. */
export function useSaveSellerSettings() {
  const queryClient = useQueryClient();
  return useMutation<SellerSettings, ApiError, SellerSettings>({
    mutationFn: (settings) => apiSend<SellerSettings>('PUT', '/seller/settings', settings),
    onSuccess: (settings) => queryClient.setQueryData(key, settings),
  });
}
