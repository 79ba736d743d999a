import type { ReactNode } from 'react';

interface EmptyStateProps {
  /** What is missing, in one sentence. */
  title: ReactNode;
  /** The ways out: a link or button to where there is something. */
  children?: ReactNode;
  /** A panel of its own, for a page whose other content sits in panels (the cart, the order desk). */
  isFramed?: boolean;
  testId?: string;
}

/** The one look of a list with nothing in it: its sentence, centred, then the ways out. */
export function EmptyState({ title, children, isFramed = false, testId }: EmptyStateProps) {
  return (
    <div
      className={`flex flex-col items-center gap-4 px-4 py-16 text-center ${isFramed ? 'rounded-box bg-base-100 ring-1 ring-base-300' : ''}`}
      data-testid={testId}
    >
      <p className="text-xl font-semibold">{title}</p>
      {children}
    </div>
  );
}
