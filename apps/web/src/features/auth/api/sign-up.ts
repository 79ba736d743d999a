import { useMutation } from '@tanstack/react-query';
import type { SignUpInput } from '@bulkcart/contracts/account';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { apiSend } from '@/lib/api-client.ts';
import { notify } from '@/components/notice.tsx';
import { refreshMe } from '@/lib/auth/me.ts';

/**
 * Creates the account with its display name and photo in one call; better-auth signs the new user in
 * (the session cookie comes back with the answer). An empty photo URL is left out.
 */
export function signUpWithPassword(input: SignUpInput): Promise<unknown> {
  return apiSend('POST', '/auth/sign-up/email', {
    name: input.name,
    email: input.email,
    password: input.password,
    ...(input.image ? { image: input.image } : {}),
  });
}

/** As with sign-in, RedirectIfSignedIn takes the new user on once /api/me knows them. */
export function useSignUp() {
  return useMutation({
    mutationFn: signUpWithPassword,
    onSuccess: async () => {
      notify({ kind: 'success', text: MESSAGES.signupSuccess, durationMs: 1000 });
      await refreshMe();
    },
  });
}
