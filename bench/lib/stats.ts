/** Nearest-rank percentile of unsorted samples (ms); NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function summarize(samples: readonly number[]): { p50: number; p99: number; mean: number } {
  const mean = samples.length === 0 ? Number.NaN : samples.reduce((a, b) => a + b, 0) / samples.length;
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), mean };
}
