import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSessionsResponse } from '@bulkcart/contracts/account';
import { apiGet, apiSend } from '@/lib/api-client.ts';

const sessionsQuery = queryOptions({
  queryKey: ['me', 'sessions'] as const,
  queryFn: () => apiGet<AccountSessionsResponse>('/me/sessions'),
});

export function useSessions() {
  return useQuery(sessionsQuery);
}

export function useSignOutOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<{ signedOut: number }>('POST', '/me/sessions/sign-out-others', {}),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  });
}
