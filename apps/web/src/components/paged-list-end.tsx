import { useEffect, useRef } from 'react';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { LoadError } from './load-error.tsx';
import { Spinner } from './spinner.tsx';

type PagedQuery = Pick<
  UseInfiniteQueryResult,
  'isError' | 'error' | 'isFetchNextPageError' | 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage' | 'refetch'
>;

interface PagedListEndProps {
  /** The list's infinite query, once its first page is shown. */
  query: PagedQuery;
  /**
   * Also load the next page when the button comes near the screen (the catalog lists,
   * docs/product/screens.md); it stays a plain button for keyboards and browsers that do not observe.
   */
  loadOnScroll?: boolean;
  /** Small, for a list inside a menu (the bell). */
  isCompact?: boolean;
}

/**
 * The end of every paged list, the one "Load more": a failed next page or refresh keeps what is shown
 * and offers Retry; otherwise the button while the server has more.
 */
export function PagedListEnd({ query, loadOnScroll = false, isCompact = false }: PagedListEndProps) {
  const ref = useRef<HTMLButtonElement>(null);
  const { fetchNextPage } = query;
  const canLoad = query.hasNextPage && !query.isFetchingNextPage && !query.isError;

  useEffect(() => {
    const button = ref.current;
    if (!loadOnScroll || !button || !canLoad || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        // A click and the observer may both ask; the second ask must not restart the first.
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage({ cancelRefetch: false });
      },
      { rootMargin: '200px' },
    );
    observer.observe(button);
    return () => observer.disconnect();
  }, [loadOnScroll, canLoad, fetchNextPage]);

  if (query.isError) {
    const retry = query.isFetchNextPageError ? () => void query.fetchNextPage() : () => void query.refetch();
    return <LoadError error={query.error} onRetry={retry} />;
  }
  if (!query.hasNextPage) return null;
  return (
    <div className={`flex justify-center ${isCompact ? 'p-2' : 'mt-6'}`}>
      <button
        ref={ref}
        type="button"
        className={isCompact ? 'btn btn-ghost btn-xs' : 'btn btn-outline btn-primary'}
        onClick={() => void fetchNextPage({ cancelRefetch: false })}
        disabled={query.isFetchingNextPage}
      >
        {query.isFetchingNextPage ? <Spinner inline size={isCompact ? 'xs' : 'sm'} /> : null}
        Load more
      </button>
    </div>
  );
}
