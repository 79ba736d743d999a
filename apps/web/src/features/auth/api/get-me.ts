import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Me } from '@bulkcart/contracts/account';
import { apiGet } from '../../../lib/api-client.ts';

export interface MeResponse {
  user: Me | null;
  googleEnabled: boolean;
  /** Demo credentials, present only when the server runs in demo mode. */
  demoLogin?: { email: string; password: string } | null;
}

export const meQueryKey = ['me'] as const;

export const meQueryOptions = queryOptions({
  queryKey: meQueryKey,
  queryFn: () => apiGet<MeResponse>('/me'),
  staleTime: 5 * 60_000,
});

export function useMe() {
  return useQuery(meQueryOptions);
}
