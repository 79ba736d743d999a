import type { MeResponse } from '@bulkcart/contracts/account';
import { apiGet, whenSessionGone } from '@/lib/api-client.ts';
import { createFetchStore, useFetchStore, type FetchResult } from '@/lib/fetch-store.ts';

export function getMe(): Promise<MeResponse> {
  return apiGet<MeResponse>('/me');
}

// Every page's frame asks who is signed in, so this lives outside TanStack Query (decision 005).
const meStore = createFetchStore(getMe, { staleMs: 5 * 60_000 });

/** Who is signed in: `{ data, isPending, isError, error, refetch }`, as useQuery would answer. */
export function useMe(): FetchResult<MeResponse> {
  return useFetchStore(meStore);
}

/** Starts the session check at once (the app's start), or waits for the one under way. */
export function loadMe(): Promise<MeResponse | undefined> {
  return meStore.load();
}

/** Asks again after a sign-in or sign-up: the guards then move the user on. */
export function refreshMe(): Promise<void> {
  return meStore.refresh();
}

/** Signed out at once on screen (navbar, guards), before the server's answer is asked for again. */
export function showSignedOut(): void {
  meStore.setData((old) => (old ? { ...old, user: null } : old));
}

// The session ended behind the app's back (expired, or signed out in another tab): the cached answer
// is wrong, and RequireAuth must send the user to /login, carrying the page they were on.
whenSessionGone(() => {
  if (meStore.getState().data?.user) showSignedOut();
});
