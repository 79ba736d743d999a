import { useCallback, useState } from 'react';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { apiSend } from '@/lib/api-client.ts';
import { getLoadedQueryClient } from '@/lib/loaded-query-client.ts';
import { notify } from '@/components/notice.tsx';
import { refreshMe, showSignedOut } from '@/lib/auth/me.ts';

export function signOut(): Promise<unknown> {
  return apiSend('POST', '/auth/sign-out', {});
}

/**
 * Logout sits in the frame of every page, so it is a plain async call rather than a TanStack mutation
 * (decision 005); it keeps useMutation's `mutate` and `isPending`.
 */
export function useSignOut() {
  const [isPending, setIsPending] = useState(false);
  const mutate = useCallback(() => {
    setIsPending(true);
    signOut().then(
      async () => {
        setIsPending(false);
        showSignedOut();
        // Everything TanStack cached (if a page loaded it) was the old user's.
        getLoadedQueryClient()?.removeQueries();
        notify({ kind: 'success', text: MESSAGES.logoutSuccess, durationMs: 1000 });
        await refreshMe();
      },
      (error: unknown) => {
        setIsPending(false);
        notify({ kind: 'error', title: 'Error', text: error instanceof Error ? error.message : String(error) });
      },
    );
  }, []);
  return { mutate, isPending };
}
