import type { ReactNode } from 'react';
import { Navigate, useLocation } from '@/lib/router.tsx';
import { paths } from '@bulkcart/contracts/routes';
import { useMe } from '@/lib/auth/me.ts';
import { useReturnPath, type FromState } from '@/features/auth/lib/return-path.ts';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';

export { useReturnPath, type FromState };

/** Signed-in pages: a signed-out visitor goes to /login, carrying the page asked for. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Spinner fullHeight label="Loading your account" />;
  // Not knowing who is signed in (server unreachable) is not the same as being signed out.
  if (me.isError && !me.data) return <LoadError error={me.error} onRetry={() => void me.refetch()} />;
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
  if (me.isPending) return <Spinner fullHeight label="Loading your account" />;
  if (me.data?.user) return <Navigate to={target} replace />;
  return children;
}
