/** A job's progress as the server reports it: rows done of all, as a bar and in words. */
export function JobProgress({ label, progress }: { label: string; progress: { done: number; total: number } }) {
  const percent = progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <div className="flex flex-col gap-1" data-testid="job-progress">
      <p className="text-sm font-medium" aria-live="polite">
        {label}: {progress.done.toLocaleString('en-US')} of {progress.total > 0 ? progress.total.toLocaleString('en-US') : '…'} rows
      </p>
      <progress className="progress progress-primary w-full" value={progress.total > 0 ? percent : undefined} max={100} aria-label={label} />
    </div>
  );
}
