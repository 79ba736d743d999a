export function Spinner({ fullHeight = false, label = 'Loading' }: { fullHeight?: boolean; label?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={`flex w-full items-center justify-center ${fullHeight ? 'min-h-[calc(100vh-4rem)]' : 'py-16'}`}
    >
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
