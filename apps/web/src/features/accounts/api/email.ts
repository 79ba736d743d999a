import { useMutation } from '@tanstack/react-query';
import type { ChangeEmailInput } from '@bulkcart/contracts/account';
import { apiSend } from '@/lib/api-client.ts';

/** The new address gets a confirmation link; the account keeps the old one until it is opened. */
export function useChangeEmail() {
  return useMutation({ mutationFn: (input: ChangeEmailInput) => apiSend<{ status: boolean }>('POST', '/auth/change-email', input) });
}
