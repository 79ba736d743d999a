import type { ReactNode } from 'react';

/** The catalog grid of spec §2: 1 column on small screens, 2 on medium, 4 on large. */
export function ProductGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-4">{children}</div>;
}
