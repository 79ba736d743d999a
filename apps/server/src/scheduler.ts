import { sql } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { queryRows } from './db/rows.ts';
import { holdingLease, intervalOf, type Claimant } from './lib/lease.ts';
import { createRepeatLimiter } from './lib/repeat-limiter.ts';

/**
 * The one scheduler of background work (docs/decisions/020-processes-pooler-replicas.md). Processes in
 * the `all` and `worker` roles run it; `web` processes never do. Two kinds of job:
 *
 * - `once`: one pass per interval across every process (the sweeps, pruning). Each job has a row in
 *   background_tasks; a process runs a pass only after claiming the due row (SKIP LOCKED, so two
 *   processes never both take it) under a lease it renews while the pass runs. A process killed
 *   mid-pass stops renewing; the lease lapses and the next process to look runs the pass instead.
 * - `each`: queues (the e-mail outbox, catalog imports) that every process polls on its own interval,
 *   claiming rows of the queue one at a time with SKIP LOCKED and a lease of their own, so any number of
 *   processes split the rows and none is done twice.
 */
export interface PeriodicJob {
  name: string;
  everyMs: number;
  runs: 'once' | 'each';
  run(): Promise<unknown>;
}

export interface Scheduler {
  /** Stops the timers and waits for the passes in progress to end (graceful shutdown). */
  stop(): Promise<void>;
}

interface Log {
  warn(obj: object, msg: string): void;
}

/** How often a process looks for `once` jobs that are due (one short statement when none is). */
export const ONCE_TICK_MS = 1_000;

/**
 * Adds the rows of `jobs` (due at once when new). A row whose next pass is further away than one
 * interval (the interval was shortened since) is brought forward to one interval from now.
 */
export async function registerTasks(db: Db, jobs: ReadonlyArray<Pick<PeriodicJob, 'name' | 'everyMs'>>): Promise<void> {
  for (const job of jobs) {
    await db.execute(sql`
      INSERT INTO background_tasks (name) VALUES (${job.name})
      ON CONFLICT (name) DO UPDATE SET next_run_at = least(background_tasks.next_run_at, now() + ${intervalOf(job.everyMs)}::interval)`);
  }
}

/**
 * Claims every due task among `names` that no live process holds. The rows are picked in a MATERIALIZED
 * CTE with SKIP LOCKED and joined on (docs/stack.md): two processes asking at once get disjoint sets,
 * and the lease stops anyone else from taking a claimed task until it lapses.
 */
export async function claimDueTasks(db: Db, names: readonly string[], claimant: Claimant): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await queryRows<{ name: string }>(
    db,
    sql`WITH picked AS MATERIALIZED (
          SELECT name FROM background_tasks
          WHERE name IN (${sql.join(
            names.map((name) => sql`${name}`),
            sql`, `,
          )})
            AND next_run_at <= now() AND (lease_until IS NULL OR lease_until < now())
          ORDER BY next_run_at FOR UPDATE SKIP LOCKED
        )
        UPDATE background_tasks t
        SET lease_until = now() + ${intervalOf(claimant.leaseMs)}::interval, claimed_by = ${claimant.claimer},
            runs = t.runs + 1, last_started_at = now(), updated_at = now()
        FROM picked WHERE t.name = picked.name
        RETURNING t.name`,
  );
  return rows.map((row) => row.name);
}

/** Extends a held lease; false when the claim was lost (another process took the task over). */
export async function renewTask(db: Db, name: string, claimant: Claimant): Promise<boolean> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`UPDATE background_tasks SET lease_until = now() + ${intervalOf(claimant.leaseMs)}::interval, updated_at = now()
        WHERE name = ${name} AND claimed_by = ${claimant.claimer} AND lease_until IS NOT NULL
        RETURNING name`,
  );
  return rows.length > 0;
}

/** Lets go of a held task and sets its next pass one interval from now; a lost claim changes nothing. */
export async function finishTask(db: Db, name: string, claimant: Claimant, everyMs: number, error: unknown): Promise<void> {
  const message = error === undefined ? null : String((error as Error)?.message ?? error).slice(0, 500);
  await db.execute(
    sql`UPDATE background_tasks
        SET lease_until = NULL, next_run_at = now() + ${intervalOf(everyMs)}::interval, last_finished_at = now(),
            last_error = ${message}, updated_at = now()
        WHERE name = ${name} AND claimed_by = ${claimant.claimer} AND lease_until IS NOT NULL`,
  );
}

/**
 * A job failing the same way again (the database away: the task check fails every second) is logged
 * once per window with a count, not once per attempt.
 */
function failureLog(log: Log): (name: string, everyMs: number, error: unknown) => void {
  const decide = createRepeatLimiter();
  return (name, everyMs, error) => {
    const { write, suppressed } = decide(`${name}: ${String((error as Error)?.message ?? error)}`);
    if (write) log.warn({ err: error, ...(suppressed > 0 ? { suppressedSinceLast: suppressed } : {}) }, `${name} failed; trying again in ${everyMs} ms`);
  };
}

/** Runs `task` every `everyMs` (never two passes at once), logging failures and carrying on. */
function every(everyMs: number, logFailure: ReturnType<typeof failureLog>, name: string, task: () => Promise<unknown>): () => Promise<void> {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = task()
        .then(
          () => undefined,
          (error: unknown) => logFailure(name, everyMs, error),
        )
        .finally(() => {
          running = null;
          schedule();
        });
    }, everyMs);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}

export function startScheduler(db: Db, jobs: readonly PeriodicJob[], log: Log, claimant: Claimant, tickMs = ONCE_TICK_MS): Scheduler {
  const logFailure = failureLog(log);
  const stops = jobs.filter((job) => job.runs === 'each').map((job) => every(job.everyMs, logFailure, job.name, job.run));
  const once = jobs.filter((job) => job.runs === 'once');
  const byName = new Map(once.map((job) => [job.name, job]));
  const passes = new Map<string, Promise<void>>();
  const runPass = async (job: PeriodicJob) => {
    let failure: unknown;
    try {
      await holdingLease(claimant.leaseMs, () => renewTask(db, job.name, claimant), job.run);
    } catch (error) {
      failure = error;
      logFailure(job.name, job.everyMs, error);
    }
    await finishTask(db, job.name, claimant, job.everyMs, failure).catch((error: unknown) =>
      // The lease lapses on its own: the task runs again then.
      log.warn({ err: error }, `${job.name} finished but could not be marked done`),
    );
  };
  let registered = false;
  const tick = async () => {
    if (!registered) {
      await registerTasks(db, once);
      registered = true;
    }
    const idle = once.filter((job) => !passes.has(job.name)).map((job) => job.name);
    for (const name of await claimDueTasks(db, idle, claimant)) {
      const pass = runPass(byName.get(name)!).finally(() => passes.delete(name));
      passes.set(name, pass);
    }
  };
  if (once.length > 0) {
    const stopTicks = every(tickMs, logFailure, 'background task check', tick);
    stops.push(async () => {
      await stopTicks();
      await Promise.all(passes.values());
    });
  }
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
