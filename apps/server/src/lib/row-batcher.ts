/**
 * Writes the items of one key (one product's row) one batch at a time in this process: while a batch
 * is being written, the items that arrive wait here, and the next batch takes them together, up to
 * `max`, in arrival order. An item that arrives when nothing is being written goes at once, alone.
 *
 * Why (docs/decisions/034-buy-now-batches.md): statements of one row run one after another anyway (the
 * row lock), so a row's throughput is one over a statement's time. Waiting at the row costs more still:
 * when a lock is released PostgreSQL wakes every waiter to re-check the row, and one wins
 * (decision 032). Here they wait holding no connection, and one statement then serves all of them: a
 * row serves k purchases in about the time of one, with one commit.
 *
 * It is a courtesy within one process, not a lock: other processes' statements still meet at the row,
 * and the row lock keeps every rule (each statement checks its guards on the row as locked).
 */
export interface RowBatcher<T, R> {
  /** Queues `item` under `key`; settles with its own outcome once a batch holding it is written. */
  submit(key: string, item: T): Promise<R>;
  /** Items of `key` waiting for a batch (not those being written). */
  waiting(key: string): number;
  /** Keys with a batch being written or items waiting (bounded by the requests in flight). */
  size(): number;
}

export interface RowBatcherOptions<T, R> {
  /** The most items one batch holds (its statement's size grows with it). */
  max: number;
  /** Whether `item` may go in the batch `first` opens; the ones that may not wait for a later batch. */
  together: (first: T, item: T) => boolean;
  /** Writes a batch; one outcome per item, in the batch's order. A throw fails every item of the batch. */
  write: (key: string, items: readonly T[]) => Promise<ReadonlyArray<PromiseSettledResult<R>>>;
}

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (reason: unknown) => void;
}

export function createRowBatcher<T, R>({ max, together, write }: RowBatcherOptions<T, R>): RowBatcher<T, R> {
  if (!Number.isInteger(max) || max < 1) throw new Error(`a batch must hold a whole number of at least 1 item (got ${max})`);
  /** Per key with a batch being written: the items waiting for the next one. */
  const byKey = new Map<string, Array<Waiting<T, R>>>();

  /** The first waiting item and the ones behind it that may go with it, taken off the queue; the rest keep their order. */
  const nextBatch = (queue: Array<Waiting<T, R>>): Array<Waiting<T, R>> => {
    const first = queue[0]!;
    const batch: Array<Waiting<T, R>> = [];
    const left: Array<Waiting<T, R>> = [];
    for (const entry of queue) {
      if (batch.length < max && (entry === first || together(first.item, entry.item))) batch.push(entry);
      else left.push(entry);
    }
    queue.splice(0, queue.length, ...left);
    return batch;
  };

  /** The outcome of each item of `batch`: what `write` answered, or its failure for every item. */
  const written = async (key: string, batch: ReadonlyArray<Waiting<T, R>>): Promise<ReadonlyArray<PromiseSettledResult<R>>> => {
    try {
      const outcomes = await write(
        key,
        batch.map((entry) => entry.item),
      );
      if (outcomes.length !== batch.length) throw new Error(`a batch of ${batch.length} was written with ${outcomes.length} outcomes`);
      return outcomes;
    } catch (error) {
      return batch.map(() => ({ status: 'rejected', reason: error }));
    }
  };

  /** Writes batches of `key` until none is waiting; started by the item that found the key idle. */
  const drain = async (key: string, queue: Array<Waiting<T, R>>): Promise<void> => {
    for (;;) {
      const batch = nextBatch(queue);
      const outcomes = await written(key, batch);
      // Idle once nothing waits: forgotten before the outcomes are told, so an item submitted on hearing
      // one finds the key idle and goes at once.
      const idle = queue.length === 0;
      if (idle) byKey.delete(key);
      batch.forEach((entry, i) => {
        const outcome = outcomes[i]!;
        if (outcome.status === 'fulfilled') entry.resolve(outcome.value);
        else entry.reject(outcome.reason);
      });
      if (idle) return;
    }
  };

  return {
    submit(key, item) {
      return new Promise<R>((resolve, reject) => {
        const queue = byKey.get(key);
        if (queue) {
          queue.push({ item, resolve, reject });
          return;
        }
        const started: Array<Waiting<T, R>> = [{ item, resolve, reject }];
        byKey.set(key, started);
        void drain(key, started);
      });
    },
    waiting: (key) => byKey.get(key)?.length ?? 0,
    size: () => byKey.size,
  };
}
