import { useMutation } from '@tanstack/react-query';
import type { DeleteAccountInput } from '@bulkcart/contracts/account';
import { apiSend } from '@/lib/api-client.ts';
import { showSignedOut } from '@/lib/auth/me.ts';

/** Orders stay for the other side; the account and everything that was only the person's go. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (input: DeleteAccountInput) => apiSend<{ deleted: true }>('DELETE', '/me', input),
    onSuccess: () => showSignedOut(),
  });
}
