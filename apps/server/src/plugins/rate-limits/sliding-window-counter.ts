/** Bound on remembered keys, so a flood of distinct IPs or emails cannot grow memory without end. */
const MAX_KEYS = 50_000;

/**
 * A sliding-window counter per key, in this process's memory. Used for the order limits only, which
 * sit on the purchase path (see docs/decisions/002-accounts.md).
 */
export class SlidingWindowCounter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const all = this.hits.get(key);
    if (!all) return [];
    const kept = all.filter((t) => now - t < this.windowMs);
    if (kept.length === 0) this.hits.delete(key);
    else if (kept.length !== all.length) this.hits.set(key, kept);
    return kept;
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  waitMs(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return 0;
    const oldest = recent[recent.length - this.limit] ?? now;
    return Math.max(1, oldest + this.windowMs - now);
  }

  record(key: string, now = Date.now()): void {
    const recent = [...this.recent(key, now), now].slice(-this.limit);
    // Re-inserting moves the key to the end, so eviction below drops the least recently active.
    this.hits.delete(key);
    this.hits.set(key, recent);
    for (const oldest of this.hits.keys()) {
      if (this.hits.size <= MAX_KEYS) break;
      this.hits.delete(oldest);
    }
  }

  clear(key: string): void {
    this.hits.delete(key);
  }
}
