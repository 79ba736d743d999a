import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@bulkcart/contracts/routes';
import { useMe } from '../features/auth/api/get-me.ts';
import { Spinner } from '../components/spinner.tsx';

export interface FromState {
  from?: string;
}

/** Where a sign-in should return to: the page carried in navigation state, or home. */
export function useReturnPath(): string {
  const location = useLocation();
  const from = (location.state as FromState | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : paths.home;
}

/** Signed-in pages: a signed-out visitor goes to /login, carrying the page asked for. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Spinner fullHeight />;
  if (!me.data?.user) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={paths.login} replace state={{ from } satisfies FromState} />;
  }
  return children;
}

/** /login and /signup: someone already signed in goes straight to where they came from. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const me = useMe();
  const target = useReturnPath();
  if (me.isPending) return <Spinner fullHeight />;
  if (me.data?.user) return <Navigate to={target} replace />;
  return children;
}
