import { sql } from 'drizzle-orm';
import { createPostgresPool, type Db } from './client.ts';
import { queryRows } from './rows.ts';

/**
 * A read replica for the reads that tolerate a little lag (docs/decisions/020-processes-pooler-replicas.md):
 * a pool on DATABASE_READ_URL and a monitor that asks the replica, every CHECK_EVERY_MS, how far it has
 * replayed the primary's write-ahead log, and the primary how far it has written. From the two it knows
 * how far behind the replica is (in time: the replica lacks what the primary had written that long ago)
 * and whether it has replayed a given write (its LSN). Reads use the replica only while it answers and
 * is no more than `maxLagMs` behind; otherwise they go to the primary, with one log line per change.
 */

/** How often the monitor asks; a change of state reaches the reads within this long. */
export const CHECK_EVERY_MS = 250;
/** A check that takes longer than this counts as the replica not answering. */
const CHECK_TIMEOUT_MS = 2_000;
/**
 * Behind a pooler that spreads connections over several replicas, each check may meet another one: the
 * latest position of each replica (told apart by address and port) is kept, and the slowest decides.
 * A replica not met for this long has left the pool and no longer counts.
 */
const REPLICA_FORGOTTEN_MS = 10_000;

export type ReplicaState = 'starting' | 'ok' | 'lagging' | 'down';

export interface ReplicaHealth {
  state: ReplicaState;
  /** How far behind the replica is, in milliseconds; null when not known (down, starting, not a standby). */
  lagMs: number | null;
}

export interface Replica {
  db: Db;
  /** Whether lag-tolerant reads may go to the replica now. */
  isUsable(): boolean;
  /**
   * Whether the replica has replayed the primary's log up to `lsn` (a write's position); false when
   * that cannot be known (the read URL is not a streaming standby).
   */
  hasReplayed(lsn: bigint): boolean;
  health(): ReplicaHealth;
  /** A read on the replica found it unavailable: reads go to the primary until a check succeeds. */
  markDown(error: unknown): void;
  close(): Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A PostgreSQL LSN (`16/B374D848`) as a number that compares. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** Where the primary's log ends now: a write committed before this call is at or before it. */
export async function currentPrimaryLsn(primary: Db): Promise<bigint> {
  // The insert position, not the write position: with synchronous_commit off, a committed transaction's
  // commit record may not be written out yet, and the write position could stand before it.
  const [row] = await queryRows<{ lsn: string }>(primary, sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
  return parseLsn(row!.lsn);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function openReplica(options: {
  url: string;
  primary: Db;
  maxLagMs: number;
  poolSize: number;
  poolIdleMs?: number;
  log: Log;
  checkEveryMs?: number;
}): Promise<Replica> {
  const { pool, db } = await createPostgresPool(options.url, {
    poolSize: options.poolSize,
    poolWaitMs: CHECK_TIMEOUT_MS,
    ...(options.poolIdleMs !== undefined ? { poolIdleMs: options.poolIdleMs } : {}),
  });
  const checkEveryMs = options.checkEveryMs ?? CHECK_EVERY_MS;
  // The primary's log position over the last while: when the replica is behind, the oldest position
  // it lacks says since when.
  const written: Array<{ at: number; lsn: bigint }> = [];
  const replayed = new Map<string, { lsn: bigint; at: number }>();
  let standby: boolean | null = null;
  let state: ReplicaState = 'starting';
  let lagMs: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const become = (next: ReplicaState, detail: object) => {
    if (next === state) return;
    const was = state;
    state = next;
    if (next === 'ok') options.log.info({ was, ...detail }, 'read replica in use for lag-tolerant reads');
    else if (next === 'lagging') options.log.warn({ ...detail, maxLagMs: options.maxLagMs }, 'read replica lags beyond its bound: reads go to the primary');
    else if (next === 'down') options.log.warn(detail, 'read replica not answering: reads go to the primary');
  };

  const replayPosition = () => {
    let lowest: bigint | null = null;
    for (const { lsn } of replayed.values()) if (lowest === null || lsn < lowest) lowest = lsn;
    return lowest;
  };

  const check = async () => {
    try {
      const lsn = await withTimeout(currentPrimaryLsn(options.primary), CHECK_TIMEOUT_MS);
      // Stamped when the answer came: under load the query may wait for a pooled connection first, and
      // a stamp from before that wait would date a later position too early (a lag that is not there).
      const at = Date.now();
      written.push({ at, lsn });
      // Enough history to measure a lag a few times the bound; older positions are not needed.
      const keepFrom = at - Math.max(4 * options.maxLagMs, 10_000);
      while (written.length > 1 && written[0]!.at < keepFrom) written.shift();
      if (written.length > 2_000) written.splice(0, written.length - 2_000);
    } catch {
      // The primary not answering is the primary's outage, answered elsewhere; lag is measured on what is known.
    }
    let row: { standby: boolean; replay: string | null; server: string } | undefined;
    try {
      [row] = await withTimeout(
        queryRows<{ standby: boolean; replay: string | null; server: string }>(
          db,
          sql`SELECT pg_is_in_recovery() AS standby, CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END AS replay,
                     coalesce(host(inet_server_addr()), 'socket') || ':' || coalesce(inet_server_port(), 0) AS server`,
        ),
        CHECK_TIMEOUT_MS,
      );
    } catch (error) {
      lagMs = null;
      become('down', { err: { message: (error as Error).message, code: (error as { code?: string }).code } });
      return;
    }
    standby = row!.standby;
    if (!standby || row!.replay === null) {
      // Not a streaming standby: its lag cannot be measured, so only the time window of read-your-writes applies.
      lagMs = null;
      become('ok', { standby });
      return;
    }
    const checkedAt = Date.now();
    replayed.set(row!.server, { lsn: parseLsn(row!.replay), at: checkedAt });
    for (const [server, sample] of replayed) if (sample.at < checkedAt - REPLICA_FORGOTTEN_MS) replayed.delete(server);
    const position = replayPosition()!;
    const oldestMissing = written.find((sample) => sample.lsn > position);
    lagMs = oldestMissing ? Math.max(0, Date.now() - oldestMissing.at) : 0;
    become(lagMs > options.maxLagMs ? 'lagging' : 'ok', { lagMs });
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      void check().finally(schedule);
    }, checkEveryMs);
    timer.unref();
  };
  await check();
  schedule();

  return {
    db,
    isUsable: () => state === 'ok',
    hasReplayed(lsn) {
      const position = standby ? replayPosition() : null;
      return position !== null && position >= lsn;
    },
    health: () => ({ state, lagMs }),
    markDown(error) {
      lagMs = null;
      become('down', { err: { message: (error as Error).message, code: (error as { code?: string }).code } });
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await pool.end();
    },
  };
}
