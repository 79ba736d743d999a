/**
 * Request batching for public catalog reads, in the manner of DataLoader: requests that arrive in the
 * same turn of the event loop share one database read. The read starts on the next turn
 * (setImmediate, after every socket that was readable in this turn has been handled), so each answer
 * comes from a read that began after its request arrived. (The routes then keep the answer for
 * CATALOG_CACHE_MS unless this process writes: answer-cache.ts.)
 *
 * Under load, one turn holds many requests and they cost one query and one serialisation; a lone
 * request pays one extra turn (microseconds). PGlite runs a query to completion without yielding,
 * so without this every request there would be a query of its own.
 */

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Requests with the same key in one turn share the result of one `load`. */
export class SameKeyBatcher<T> {
  private readonly gathering = new Map<string, Promise<T>>();

  load(key: string, load: () => Promise<T>): Promise<T> {
    const joined = this.gathering.get(key);
    if (joined) return joined;
    const batch = nextTurn().then(() => {
      // Requests arriving from now on wait for a read of their own.
      this.gathering.delete(key);
      return load();
    });
    this.gathering.set(key, batch);
    return batch;
  }
}

/**
 * Requests for different keys in one turn share one `loadMany` (e.g. one `WHERE id = ANY(…)`);
 * each gets the value for its own key, or `undefined` when there is none.
 */
export class ManyKeyBatcher<T> {
  private gathering: { keys: Set<string>; result: Promise<Map<string, T>> } | null = null;

  constructor(private readonly loadMany: (keys: string[]) => Promise<Map<string, T>>) {}

  async load(key: string): Promise<T | undefined> {
    if (!this.gathering) {
      const keys = new Set<string>();
      const result = nextTurn().then(() => {
        this.gathering = null;
        return this.loadMany([...keys]);
      });
      this.gathering = { keys, result };
    }
    this.gathering.keys.add(key);
    return (await this.gathering.result).get(key);
  }
}
