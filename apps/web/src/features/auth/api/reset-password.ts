import { useMutation } from '@tanstack/react-query';
import type { RequestPasswordResetInput, ResetPasswordInput } from '@bulkcart/contracts/account';
import { apiSend } from '@/lib/api-client.ts';

/** Answers the same whether or not the address has an account; the link arrives by e-mail. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (input: RequestPasswordResetInput) => apiSend<{ status: boolean; message: string }>('POST', '/auth/request-password-reset', input),
  });
}

/** The token comes from the mailed link; every session of the account is signed out afterwards. */
export function useResetPassword() {
  return useMutation({ mutationFn: (input: ResetPasswordInput) => apiSend<{ status: boolean }>('POST', '/auth/reset-password', input) });
}
