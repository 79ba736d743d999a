/** A failed load: the reason and a way to try again, never an endless spinner. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <div role="alert" className="alert alert-error my-8 flex flex-wrap justify-between">
      <span>Could not load this page: {message}</span>
      <button type="button" className="btn btn-sm" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
