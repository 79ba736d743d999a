import { and, eq, isNull, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import { emailOutbox } from '../../db/schema/notifications.ts';
import { holdingLease, PROCESS_CLAIMER, type Claimant } from '../../lib/lease.ts';

/** What the deliverer needs of a mail transport (nodemailer's, or a test's). */
export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string; messageId: string }): Promise<unknown>;
  close?(): void;
}

export function createSmtpTransport(smtpUrl: string): MailTransport {
  // Short timeouts: a mail server that hangs must not hold a claimed row for minutes.
  return nodemailer.createTransport(smtpUrl, { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 } as never);
}

/**
 * How long one process holds a claimed email unless it renews the claim (it does while sending); past
 * it (the process died mid-send) another may try. JOB_LEASE_MS sets it for the server's deliverer.
 */
const CLAIM_MS = 60_000;
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 15 * 60_000;
const BATCH = 50;

/** 1 s, 2 s, 4 s … up to 15 minutes between attempts while the mail server is down. */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Claims the next due email with one guarded update: the row is taken only if unsent, due, and not
 * held by another sender (SKIP LOCKED lets concurrent processes each take a different one). The row is
 * picked in a MATERIALIZED CTE and joined on, so the claim takes exactly the row picked: a subquery in
 * the WHERE clause may be run again while PostgreSQL rechecks a row changed under it.
 */
async function claimNext(db: Db, now: Date, claimant: Claimant) {
  const at = now.toISOString();
  const [row] = await queryRows<{ id: string; toEmail: string; subject: string; body: string; attempts: number; carriesSecret: boolean }>(
    db,
    sql`WITH picked AS MATERIALIZED (
          SELECT id FROM email_outbox
          WHERE sent_at IS NULL AND next_attempt_at <= ${at}::timestamptz
            AND (claimed_until IS NULL OR claimed_until < ${at}::timestamptz)
          ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED
        )
        UPDATE email_outbox o
        SET claimed_until = ${new Date(now.getTime() + claimant.leaseMs).toISOString()}::timestamptz, claimed_by = ${claimant.claimer},
            attempts = o.attempts + 1, updated_at = now()
        FROM picked WHERE o.id = picked.id AND o.sent_at IS NULL
        RETURNING o.id, o.to_email AS "toEmail", o.subject, o.body, o.attempts, o.carries_secret AS "carriesSecret"`,
  );
  return row;
}

/**
 * Sends every email due at `now`, each once: claimed, sent, then marked sent. The Message-ID is the
 * outbox row's, so even a send repeated after a crash between sending and marking is one message to
 * any server that de-duplicates. A failure puts the row back with a later attempt time.
 */
export async function deliverDueEmails(
  db: Db,
  transport: MailTransport,
  from: string,
  now: Date,
  claimant: Claimant = { claimer: PROCESS_CLAIMER, leaseMs: CLAIM_MS },
): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  // `now` as time goes on during the pass (a pass may send for a while, and a claim may wait for a
  // connection): claims and renewals count their lease from the moment they are made.
  const passStartedAt = Date.now();
  const clock = () => new Date(now.getTime() + (Date.now() - passStartedAt));
  for (let i = 0; i < BATCH; i += 1) {
    const row = await claimNext(db, clock(), claimant);
    if (!row) break;
    try {
      // A slow mail server must not let the claim lapse under a live sender (two sends of one e-mail):
      // the claim is renewed while the send is under way.
      const renew = () =>
        db
          .update(emailOutbox)
          .set({ claimedUntil: new Date(clock().getTime() + claimant.leaseMs), updatedAt: sql`now()` })
          .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.claimedBy, claimant.claimer), isNull(emailOutbox.sentAt)));
      await holdingLease(claimant.leaseMs, renew, () =>
        transport.sendMail({ from, to: row.toEmail, subject: row.subject, text: row.body, messageId: `<${row.id}@bulkcart>` }),
      );
      // A verification or reset link is not kept once delivered: the mailbox holds it, not our table.
      if (row.carriesSecret) await db.delete(emailOutbox).where(eq(emailOutbox.id, row.id));
      else {
        await db
          .update(emailOutbox)
          .set({ sentAt: sql`now()`, claimedUntil: null, lastError: null, updatedAt: sql`now()` })
          .where(eq(emailOutbox.id, row.id));
      }
      sent += 1;
    } catch (error) {
      await db
        .update(emailOutbox)
        .set({
          claimedUntil: null,
          nextAttemptAt: new Date(now.getTime() + backoffMs(row.attempts)),
          lastError: String((error as Error).message ?? error).slice(0, 500),
          updatedAt: sql`now()`,
        })
        // Only this sender's own claim is put back: a process that took the row over keeps it.
        .where(and(eq(emailOutbox.id, row.id), isNull(emailOutbox.sentAt), eq(emailOutbox.claimedBy, claimant.claimer)));
      failed += 1;
      // The server is likely down: the rest wait for their own next attempt.
      break;
    }
  }
  return { sent, failed };
}

/** Sent emails are kept this long (what was sent to whom, for support), then deleted. */
export const KEEP_SENT_EMAILS_MS = 30 * 24 * 60 * 60_000;
/** How often pruning runs: emails expire by the day, so an hourly pass keeps up. */
export const PRUNE_INTERVAL_MS = 60 * 60_000;
const PRUNE_BATCH = 500;

/**
 * Deletes sent emails older than KEEP_SENT_EMAILS_MS, oldest first, at most PRUNE_BATCH per pass so a
 * pass never holds the table long; background.ts runs it every PRUNE_INTERVAL_MS. Unsent emails are
 * never deleted, however old.
 */
export async function pruneSentEmails(db: Db, now: Date): Promise<number> {
  // The batch is picked once (MATERIALIZED) and joined on, so one pass deletes at most PRUNE_BATCH.
  const [row] = await queryRows<{ deleted: number }>(
    db,
    sql`WITH picked AS MATERIALIZED (
          SELECT id FROM email_outbox
          WHERE sent_at < ${new Date(now.getTime() - KEEP_SENT_EMAILS_MS).toISOString()}::timestamptz
          ORDER BY sent_at LIMIT ${PRUNE_BATCH}::int
        ), gone AS (
          DELETE FROM email_outbox o USING picked WHERE o.id = picked.id RETURNING 1
        )
        SELECT count(*)::int AS deleted FROM gone`,
  );
  return row?.deleted ?? 0;
}
