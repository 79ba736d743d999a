import { Spinner } from '../../../components/spinner.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { useVerificationQueue } from '../api/verifications.ts';
import { VerificationCard } from '../components/verification-card.tsx';

/** /admin/verifications: pending verifications, oldest first (operators, app/route-guards.tsx; docs/decisions/014). */
export function VerificationsPage() {
  const queue = useVerificationQueue();
  if (queue.isPending) return <Spinner label="Loading the queue" />;
  if (queue.isError) return <LoadError error={queue.error} onRetry={() => void queue.refetch()} />;
  const items = queue.data.pages.flatMap((page) => page.items);
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 className="text-2xl font-bold md:text-3xl">Verification queue</h1>
      {items.length === 0 ? <p className="rounded-box bg-base-100 p-6 text-center ring-1 ring-base-300">Nothing is waiting for review.</p> : null}
      {items.map((verification) => (
        <VerificationCard key={verification._id} verification={verification} />
      ))}
      {queue.hasNextPage ? (
        <button type="button" className="btn btn-outline self-center" disabled={queue.isFetchingNextPage} onClick={() => void queue.fetchNextPage()}>
          {queue.isFetchingNextPage ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
          Load more
        </button>
      ) : null}
    </div>
  );
}
