/** Bound on keys this process remembers as refused; past it the oldest is forgotten (and asks the database again). */
const MAX_BLOCKED_KEYS = 10_000;

/**
 * Keys the database has refused, each until its window ends, in this process's memory. A request with
 * any of them is refused at once, so a client already over its limit costs no database write and cannot
 * fill rate_limit_counters with new email keys while it is being refused. Another process learns of the
 * block from the database on its first try; a key forgotten by the bound is only asked about again.
 */
export class BlockedKeys {
  private readonly until = new Map<string, number>();

  constructor(private readonly maxKeys = MAX_BLOCKED_KEYS) {}

  /** Milliseconds until the longest-blocked of these keys is free; 0 when none is blocked. */
  waitMs(keys: string[], now = Date.now()): number {
    let wait = 0;
    for (const key of keys) {
      const end = this.until.get(key);
      if (end === undefined) continue;
      if (end <= now) this.until.delete(key);
      else wait = Math.max(wait, end - now);
    }
    return wait;
  }

  block(key: string, waitMs: number, now = Date.now()): void {
    // Re-inserting moves the key to the end, so the bound below drops the oldest block.
    this.until.delete(key);
    this.until.set(key, now + waitMs);
    for (const oldest of this.until.keys()) {
      if (this.until.size <= this.maxKeys) break;
      this.until.delete(oldest);
    }
  }
}
