import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { apiSend } from '../../../lib/api-client.ts';
import { notify } from '../../../components/notice.tsx';
import { meQueryKey } from './get-me.ts';

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend('POST', '/auth/sign-out', {}),
    onSuccess: async () => {
      // Drop everything cached for the old user before showing the signed-out frame.
      queryClient.clear();
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      notify({ kind: 'success', text: MESSAGES.logoutSuccess, durationMs: 1000 });
    },
    onError: (error) => notify({ kind: 'error', title: 'Error', text: error.message }),
  });
}
