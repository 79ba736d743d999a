import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context.ts';
import { runOrderSweep } from './modules/orders/sales.service.ts';
import { runCatalogJobs } from './modules/catalog/index.ts';
import { createSmtpTransport, deliverDueEmails, PRUNE_INTERVAL_MS, pruneSentEmails, type MailTransport } from './modules/notifications/mail-deliverer.ts';

/** How often a process looks for catalog import jobs nobody holds (a job's lease is 60 s). */
const CATALOG_JOB_SWEEP_MS = 15_000;

export interface BackgroundWork {
  /** Stops the timers and waits for a pass in progress to end (graceful shutdown). */
  stop(): Promise<void>;
}

/** Runs `task` every `everyMs` (never two passes at once), logging failures and carrying on. */
function every(everyMs: number, log: FastifyBaseLogger, name: string, task: () => Promise<unknown>) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = task()
        .then(
          () => undefined,
          (error: unknown) => log.warn({ err: error }, `${name} failed; trying again in ${everyMs} ms`),
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

/**
 * Each server process sweeps orders (3-business-day cancel, late flags), sends due emails and, hourly,
 * deletes sent ones past their keeping time, each on its own interval. All are safe with several
 * processes on one database (guarded updates, SKIP LOCKED; two prunes at once delete each row once).
 */
export function startBackgroundWork(ctx: AppContext, log: FastifyBaseLogger, transport?: MailTransport): BackgroundWork {
  const stops = [every(ctx.config.orderSweepIntervalMs, log, 'order sweep', () => runOrderSweep(ctx.db, ctx.config, ctx.clock()))];
  const mail = ctx.config.mail;
  // Without SMTP the account e-mails (confirmations, resets) still leave the outbox, into the local mailbox.
  const mailer = transport ?? (mail ? createSmtpTransport(mail.smtpUrl) : ctx.mailbox);
  const from = mail?.from ?? 'BulkCart <accounts@bulkcart.local>';
  stops.push(every(ctx.config.mailIntervalMs, log, 'mail delivery', () => deliverDueEmails(ctx.db, mailer, from, ctx.clock())));
  // Catalog imports left by a process that stopped mid-job (each process starts its own uploads at once).
  stops.push(every(CATALOG_JOB_SWEEP_MS, log, 'catalog import jobs', () => runCatalogJobs(ctx.db, ctx.clock)));
  stops.push(every(PRUNE_INTERVAL_MS, log, 'sent email pruning', () => pruneSentEmails(ctx.db, ctx.clock())));
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
      mailer.close?.();
    },
  };
}
