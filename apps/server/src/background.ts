import type { AppContext } from './context.ts';
import { runOrderSweep } from './modules/orders/index.ts';
import { IMPORT_ROWS_SWEEP_MS, runCatalogJobs, sweepImportRows } from './modules/catalog/index.ts';
import { createSmtpTransport, deliverDueEmails, PRUNE_INTERVAL_MS, pruneSentEmails, type MailTransport } from './modules/notifications/mail-deliverer.ts';
import { runExpirySweep, SWEEP_EVERY_MS } from './modules/business/expiry-sweep.ts';
import { verificationNotifier } from './modules/notifications/notify.ts';
import { sweepAllExpiredCounters } from './plugins/rate-limits/database-counters.ts';
import { processClaimant, type Claimant } from './lib/lease.ts';
import { startScheduler, type PeriodicJob, type Scheduler } from './scheduler.ts';

/**
 * How often a process looks for catalog import jobs nobody holds: uploads to a `web` process wait for
 * a worker to look, so the wait is short; a job left by a process that died waits for its lease too.
 */
export const CATALOG_JOB_POLL_MS = 2_000;
/** How often expired rate-limit counters are deleted (they only weigh on the table, never on a rule). */
export const COUNTER_SWEEP_MS = 60_000;

interface Log {
  warn(obj: object, msg: string): void;
}

/**
 * Every periodic job of the product, in one list (scheduler.ts runs them). The sweeps and pruning run
 * once per interval across all processes; the outbox and import queues are drained by every process
 * that runs jobs, each row claimed by one. All of them are also safe when run twice (guarded updates).
 */
export function periodicJobs(ctx: AppContext, mailer: MailTransport, claimant: Claimant): PeriodicJob[] {
  const from = ctx.config.mail?.from ?? 'BulkCart <accounts@bulkcart.local>';
  const jobs: PeriodicJob[] = [
    // 3-business-day cancel and late flags (docs/decisions/012-order-workflow.md).
    { name: 'order sweep', everyMs: ctx.config.orderSweepIntervalMs, runs: 'once', run: () => runOrderSweep(ctx.db, ctx.config, ctx.clock()) },
    // Permits that lapse turn their buyers back (docs/decisions/014); notices reach the bell and the outbox.
    {
      name: 'permit expiry sweep',
      everyMs: SWEEP_EVERY_MS,
      runs: 'once',
      run: () => runExpirySweep(ctx.db, { now: ctx.clock(), notify: verificationNotifier(ctx.config) }),
    },
    { name: 'sent email pruning', everyMs: PRUNE_INTERVAL_MS, runs: 'once', run: () => pruneSentEmails(ctx.db, ctx.clock()) },
    { name: 'rate limit counter sweep', everyMs: COUNTER_SWEEP_MS, runs: 'once', run: () => sweepAllExpiredCounters(ctx.db) },
    { name: 'mail delivery', everyMs: ctx.config.mailIntervalMs, runs: 'each', run: () => deliverDueEmails(ctx.db, mailer, from, ctx.clock(), claimant) },
    // Uploads to a `web` process, and imports left by a process that stopped mid-job.
    {
      name: 'catalog import jobs',
      everyMs: CATALOG_JOB_POLL_MS,
      runs: 'each',
      run: () => runCatalogJobs(ctx.db, ctx.clock, undefined, claimant, () => ctx.catalogAnswers.forgetAll()),
    },
    // Staging rows of imports past their undo window, and of failed ones (docs/decisions/018-catalog-import.md).
    { name: 'catalog import rows sweep', everyMs: IMPORT_ROWS_SWEEP_MS, runs: 'once', run: () => sweepImportRows(ctx.db, ctx.clock()) },
  ];
  // A job may change what the catalog shows (a sweep's cancel returns stock, an import writes products):
  // after every run this process answers no catalog read it kept from before (lib/answer-cache.ts).
  return jobs.map((job) => ({ ...job, run: () => job.run().finally(() => ctx.catalogAnswers.forgetAll()) }));
}

/** Whether a process in this role runs the background work (docs/deploy.md). */
export function runsBackgroundWork(role: AppContext['config']['processRole']): boolean {
  return role !== 'web';
}

/** Starts the scheduler with every periodic job; `transport` replaces the mail server (tests). */
export function startBackgroundWork(ctx: AppContext, log: Log, transport?: MailTransport): Scheduler {
  const mail = ctx.config.mail;
  // Without SMTP the account e-mails (confirmations, resets) still leave the outbox, into the local mailbox.
  const mailer = transport ?? (mail ? createSmtpTransport(mail.smtpUrl) : ctx.mailbox);
  const scheduler = startScheduler(ctx.db, periodicJobs(ctx, mailer, processClaimant(ctx.config.jobLeaseMs)), log, processClaimant(ctx.config.jobLeaseMs));
  return {
    async stop() {
      await scheduler.stop();
      mailer.close?.();
    },
  };
}
