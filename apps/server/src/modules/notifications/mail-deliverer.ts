import { and, asc, eq, inArray, isNull, lte, or, lt, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema/orders.ts';

/** What the deliverer needs of a mail transport (nodemailer's, or a test's). */
export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string; messageId: string }): Promise<unknown>;
  close?(): void;
}

export function createSmtpTransport(smtpUrl: string): MailTransport {
  // Short timeouts: a mail server that hangs must not hold a claimed row for minutes.
  return nodemailer.createTransport(smtpUrl, { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 } as never);
}

/** How long one process holds a claimed email; past it (the process died mid-send) another may try. */
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
 * held by another sender (SKIP LOCKED lets concurrent processes each take a different one).
 */
async function claimNext(db: Db, now: Date) {
  const due = db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(
      and(
        isNull(emailOutbox.sentAt),
        lte(emailOutbox.nextAttemptAt, now),
        or(isNull(emailOutbox.claimedUntil), lt(emailOutbox.claimedUntil, now)),
      ),
    )
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(emailOutbox)
    .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS), attempts: sql`${emailOutbox.attempts} + 1`, updatedAt: sql`now()` })
    .where(and(eq(emailOutbox.id, sql`(${due})`), isNull(emailOutbox.sentAt)))
    .returning();
  return row;
}

/**
 * Sends every email due at `now`, each once: claimed, sent, then marked sent. The Message-ID is the
 * outbox row's, so even a send repeated after a crash between sending and marking is one message to
 * any server that de-duplicates. A failure puts the row back with a later attempt time.
 */
export async function deliverDueEmails(db: Db, transport: MailTransport, from: string, now: Date): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for (let i = 0; i < BATCH; i += 1) {
    const row = await claimNext(db, now);
    if (!row) break;
    try {
      await transport.sendMail({ from, to: row.toEmail, subject: row.subject, text: row.body, messageId: `<${row.id}@bulkcart>` });
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
        .where(and(eq(emailOutbox.id, row.id), isNull(emailOutbox.sentAt)));
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
  const expired = db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(lt(emailOutbox.sentAt, new Date(now.getTime() - KEEP_SENT_EMAILS_MS)))
    .orderBy(asc(emailOutbox.sentAt))
    .limit(PRUNE_BATCH);
  const deleted = await db.delete(emailOutbox).where(inArray(emailOutbox.id, expired)).returning({ id: emailOutbox.id });
  return deleted.length;
}
