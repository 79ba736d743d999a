import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per periodic task that runs once per pass across every process (the order sweep, the permit
 * expiry sweep, pruning): a process runs the task only while it holds the lease (`lease_until`), which
 * it renews while it works, so a process killed mid-pass lets another take the task after the lease
 * (docs/decisions/020-processes-pooler-replicas.md). The tasks that drain queues (the e-mail outbox,
 * catalog imports) claim their own rows instead and have no row here.
 */
export const backgroundTasks = pgTable('background_tasks', {
  name: text('name').primaryKey(),
  /** When the next pass is due; a finished pass moves it one interval on. */
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull().defaultNow(),
  /** Held until then; null when no pass is running. */
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  /** The process running the task now or that ran it last (host:pid:tag). */
  claimedBy: text('claimed_by'),
  runs: integer('runs').notNull().default(0),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
