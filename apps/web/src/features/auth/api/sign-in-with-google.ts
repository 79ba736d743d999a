import { useMutation } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client.ts';

export const GOOGLE_PROVIDER_ID = 'google';

interface SocialSignInAnswer {
  url: string;
  redirect: boolean;
}

/**
 * Starts the OpenID Connect flow: better-auth answers with the provider's authorization URL and the
 * browser goes there. Afterwards better-auth's callback sends it to `returnTo` (signed in) or, on any
 * failure, back to `errorPath`, where nothing is said about it (docs/product/screens.md: silently ignored).
 */
export async function startGoogleSignIn({ returnTo, errorPath }: { returnTo: string; errorPath: string }): Promise<void> {
  const answer = await apiSend<SocialSignInAnswer>('POST', '/auth/sign-in/social', {
    provider: GOOGLE_PROVIDER_ID,
    callbackURL: returnTo,
    errorCallbackURL: errorPath,
    disableRedirect: true,
  });
  window.location.assign(answer.url);
}

export function useGoogleSignIn() {
  return useMutation({ mutationFn: startGoogleSignIn });
}
