import { useEffect, useRef } from 'react';
import { Spinner } from '../../../components/spinner.tsx';

interface LoadMoreProps {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: (options?: { cancelRefetch?: boolean }) => unknown;
}

/**
 * "Load more" under a bounded list. It also loads the next page on its own when scrolled into view
 * (docs/product/rules.md), and stays a plain button for keyboards and for browsers that do not observe.
 */
export function LoadMore({ hasNextPage, isFetchingNextPage, fetchNextPage }: LoadMoreProps) {
  const ref = useRef<HTMLButtonElement>(null);
  const canLoad = hasNextPage && !isFetchingNextPage;

  useEffect(() => {
    const button = ref.current;
    if (!button || !canLoad || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      // A click and the observer may both ask; the second ask must not restart the first.
      if (entries.some((entry) => entry.isIntersecting)) fetchNextPage({ cancelRefetch: false });
    }, { rootMargin: '200px' });
    observer.observe(button);
    return () => observer.disconnect();
  }, [canLoad, fetchNextPage]);

  if (!hasNextPage) return null;
  return (
    <div className="mt-8 flex justify-center">
      <button ref={ref} type="button" className="btn btn-outline btn-primary" onClick={() => fetchNextPage({ cancelRefetch: false })} disabled={isFetchingNextPage}>
        {isFetchingNextPage ? <Spinner inline /> : null}
        {isFetchingNextPage ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
