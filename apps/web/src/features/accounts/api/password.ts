import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '@bulkcart/contracts/account';
import { apiSend } from '@/lib/api-client.ts';

/** Needs the current password; the server signs out every other session. */
export function useChangePassword() {
  return useMutation({ mutationFn: (input: ChangePasswordInput) => apiSend<unknown>('POST', '/auth/change-password', input) });
}
