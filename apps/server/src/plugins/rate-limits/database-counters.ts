import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';

/** Expired counter rows one sweep deletes at most, so a sweep stays a short statement. */
export const SWEEP_BATCH = 500;

/** What one counted key allows: `limit` attempts in a window of `windowMs` from the window's first. */
export interface CounterSpec {
  key: string;
  limit: number;
  windowMs: number;
}

/** A key's count after this request took its place, and the window it was counted in. */
export interface CountedAttempt {
  key: string;
  count: number;
  /** The window's end as PostgreSQL text: exact, so a give-back can name the same window. */
  windowEnd: string;
  /** Milliseconds until the window ends, by the database's clock. */
  waitMs: number;
}

/**
 * Counts one attempt against each key in one statement and answers every key's count including it.
 * A key's window starts at its first attempt and lasts `windowMs`; the first attempt after it starts
 * a new one. Keys are taken in sorted order, so two requests sharing keys cannot deadlock.
 */
export async function countAttempts(db: Db, specs: CounterSpec[]): Promise<CountedAttempt[]> {
  const sorted = [...specs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const values = sql.join(
    sorted.map((s) => sql`(${s.key}, 1, now() + ${s.windowMs}::int * interval '1 millisecond')`),
    sql`, `,
  );
  return queryRows<CountedAttempt>(
    db,
    sql`INSERT INTO rate_limit_counters AS c (key, count, expires_at) VALUES ${values}
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN c.expires_at <= now() THEN 1 ELSE c.count + 1 END,
          expires_at = CASE WHEN c.expires_at <= now() THEN excluded.expires_at ELSE c.expires_at END
        RETURNING c.key, c.count, c.expires_at::text AS "windowEnd",
          greatest(1, ceil(extract(epoch FROM c.expires_at - now()) * 1000))::int AS "waitMs"`,
  );
}

/**
 * Takes back attempts counted by countAttempts, each only while its window is still the one it was
 * counted in (a newer window never held it). A missing row is left as an empty one, which the sweep
 * deletes; an update-only statement could not promise the sorted lock order.
 */
export async function uncountAttempts(db: Db, attempts: Pick<CountedAttempt, 'key' | 'windowEnd'>[]): Promise<void> {
  if (attempts.length === 0) return;
  const sorted = [...attempts].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const values = sql.join(
    sorted.map((a) => sql`(${a.key}, 0, ${a.windowEnd}::timestamptz)`),
    sql`, `,
  );
  await db.execute(
    sql`INSERT INTO rate_limit_counters AS c (key, count, expires_at) VALUES ${values}
        ON CONFLICT (key) DO UPDATE SET count = greatest(c.count - 1, 0)
        WHERE c.expires_at = excluded.expires_at`,
  );
}

export async function clearCounter(db: Db, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limit_counters WHERE key = ${key}`);
}

/**
 * Deletes up to `batch` expired counters, oldest first, and says how many. SKIP LOCKED lets processes
 * sweep at once without waiting on each other; the outer expiry check spares a row a concurrent
 * attempt has just restarted. The batch is claimed in a MATERIALIZED CTE and joined on: a
 * `DELETE … WHERE key IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` is not bounded by n, because
 * PostgreSQL may run the subquery again while rechecking a row changed under it (a sweep bounded to 2
 * was seen deleting 3).
 */
export async function sweepExpiredCounters(db: Db, batch = SWEEP_BATCH): Promise<number> {
  const [row] = await queryRows<{ deleted: number }>(
    db,
    sql`WITH picked AS MATERIALIZED (
          SELECT key FROM rate_limit_counters WHERE expires_at <= now()
          ORDER BY expires_at LIMIT ${batch}::int FOR UPDATE SKIP LOCKED
        ), gone AS (
          DELETE FROM rate_limit_counters c USING picked
          WHERE c.key = picked.key AND c.expires_at <= now()
          RETURNING 1
        )
        SELECT count(*)::int AS deleted FROM gone`,
  );
  return row?.deleted ?? 0;
}

/** Batches one pass of the background sweep deletes at most, so a pass stays short under any backlog. */
const SWEEP_PASS_BATCHES = 20;

/** The background sweep (background.ts): expired counters in bounded batches until none is left or the pass is full. */
export async function sweepAllExpiredCounters(db: Db): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < SWEEP_PASS_BATCHES; i += 1) {
    const batch = await sweepExpiredCounters(db);
    deleted += batch;
    if (batch < SWEEP_BATCH) break;
  }
  return deleted;
}
