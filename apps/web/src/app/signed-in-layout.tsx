import type { ReactNode } from 'react';
import { QueryProvider } from '@/lib/query-provider.tsx';
import { RequireAuth } from './route-guards.tsx';

/**
 * The signed-in pages: the guard, then TanStack Query, which these pages use for server state. Both
 * load with the first such page, not with the frame that the home page also runs (decision 005).
 */
export function SignedInLayout({ children }: { children: ReactNode }) {
  return (
    <RequireAuth>
      <QueryProvider>{children}</QueryProvider>
    </RequireAuth>
  );
}
