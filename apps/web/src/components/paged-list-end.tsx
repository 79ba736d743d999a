import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { LoadError } from './load-error.tsx';
import { Spinner } from './spinner.tsx';

/**
 * Under a paged list (the cart, the desk, the operator's queue and audit trail): a failed next page or refresh keeps what is shown and
 * offers Retry; otherwise "Load more" while the server has more.
 */
export function PagedListEnd({ query }: { query: Pick<UseInfiniteQueryResult, 'isError' | 'error' | 'isFetchNextPageError' | 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage' | 'refetch'> }) {
  if (query.isError) {
    const retry = query.isFetchNextPageError ? () => void query.fetchNextPage() : () => void query.refetch();
    return <LoadError error={query.error} onRetry={retry} />;
  }
  if (!query.hasNextPage) return null;
  return (
    <div className="mt-2 flex justify-center">
      <button type="button" className="btn btn-outline btn-primary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
        {query.isFetchingNextPage ? <Spinner inline /> : null}
        Load more
      </button>
    </div>
  );
}
