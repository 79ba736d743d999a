import type { ReactNode } from 'react';
import { QueryProvider } from '@/lib/query-provider.tsx';

/** Pages for anyone, signed in or not, that use TanStack Query (the password recovery forms). */
export function OpenLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
