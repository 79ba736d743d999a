/** How long one kind of log line stays quiet after it was written. */
export const REPEAT_WINDOW_MS = 10_000;
/** Bound on remembered kinds, so a stream of distinct messages cannot grow memory without end. */
const MAX_KINDS = 1_000;

export interface RepeatDecision {
  write: boolean;
  /** Lines of this kind left out since the last one written; worth saying on the one that is. */
  suppressed: number;
}

/**
 * Decides which of many identical log lines to write: the first of each kind, then at most one per
 * window, carrying how many were left out meanwhile. In a database outage every request fails the
 * same way, and a line per request (thousands a second) buries the line that matters and costs CPU
 * the server needs to recover. The clock is a parameter so tests need not wait.
 */
export function createRepeatLimiter(windowMs = REPEAT_WINDOW_MS, now: () => number = Date.now) {
  const kinds = new Map<string, { writtenAt: number; suppressed: number }>();
  return function decide(kind: string): RepeatDecision {
    const at = now();
    const seen = kinds.get(kind);
    if (seen && at - seen.writtenAt < windowMs) {
      seen.suppressed += 1;
      return { write: false, suppressed: seen.suppressed };
    }
    const suppressed = seen?.suppressed ?? 0;
    // Re-inserting keeps the map in last-written order, so the bound below drops the stalest kind.
    kinds.delete(kind);
    kinds.set(kind, { writtenAt: at, suppressed: 0 });
    if (kinds.size > MAX_KINDS) kinds.delete(kinds.keys().next().value as string);
    return { write: true, suppressed };
  };
}
