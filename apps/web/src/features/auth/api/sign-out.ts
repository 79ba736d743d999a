import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { apiSend } from '../../../lib/api-client.ts';
import { notify } from '../../../components/notice.tsx';
import { meQueryKey, type MeResponse } from './get-me.ts';

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend('POST', '/auth/sign-out', {}),
    onSuccess: async () => {
      // Signed out at once on screen: the navbar and the guards read this. (Clearing the whole cache
      // would not do: mounted observers keep showing the data of a query that was removed.)
      queryClient.setQueryData<MeResponse>(meQueryKey, (old) => (old ? { ...old, user: null } : old));
      // Everything else cached was the old user's.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryKey[0] });
      notify({ kind: 'success', text: MESSAGES.logoutSuccess, durationMs: 1000 });
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
    onError: (error) => notify({ kind: 'error', title: 'Error', text: error.message }),
  });
}
