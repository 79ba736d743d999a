/** An upload's progress (0…1) as a bar and a percentage; `done` replaces the percentage once the server answered. */
export function UploadProgress({ fraction, isDone = false }: { fraction: number; isDone?: boolean }) {
  const percent = Math.round(fraction * 100);
  return (
    <div className="flex items-center gap-2" data-testid="upload-progress">
      <progress className="progress progress-primary w-full max-w-md" value={percent} max={100} aria-label="Upload progress" />
      <span className="text-sm tabular-nums whitespace-nowrap">{isDone ? 'Uploaded' : `${percent}%`}</span>
    </div>
  );
}
