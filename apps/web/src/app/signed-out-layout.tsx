import type { ReactNode } from 'react';
import { QueryProvider } from '@/lib/query-provider.tsx';
import { RedirectIfSignedIn } from './route-guards.tsx';

/** /login and /signup: someone already signed in moves on; the forms' mutations use TanStack Query. */
export function SignedOutLayout({ children }: { children: ReactNode }) {
  return (
    <RedirectIfSignedIn>
      <QueryProvider>{children}</QueryProvider>
    </RedirectIfSignedIn>
  );
}
