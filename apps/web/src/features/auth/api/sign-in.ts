import { useMutation } from '@tanstack/react-query';
import type { SignInInput } from '@bulkcart/contracts/account';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { apiSend } from '@/lib/api-client.ts';
import { notify } from '@/components/notice.tsx';
import { refreshMe } from '@/lib/auth/me.ts';

/** docs/product/rules.md: the login success and password sign-in failure notices both last 1000 ms. */
const LOGIN_NOTICE_MS = 1000;

/** Password sign-in against better-auth; the answer sets the HttpOnly session cookie. */
export function signInWithPassword(input: SignInInput): Promise<unknown> {
  return apiSend('POST', '/auth/sign-in/email', { email: input.email, password: input.password });
}

/**
 * The notices live here, not in the page: once /api/me says "signed in", RedirectIfSignedIn replaces
 * the page with the one the user came from, and callbacks given to `mutate` would never run.
 */
export function useSignIn() {
  return useMutation({
    mutationFn: signInWithPassword,
    onSuccess: async () => {
      notify({ kind: 'success', text: MESSAGES.loginSuccess, durationMs: LOGIN_NOTICE_MS });
      await refreshMe();
    },
    onError: () => notify({ kind: 'error', text: MESSAGES.somethingWentWrong, durationMs: LOGIN_NOTICE_MS }),
  });
}
