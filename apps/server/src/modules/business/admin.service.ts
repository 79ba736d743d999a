import { and, asc, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  SAME_PERMIT_SHOWN,
  SUBMISSION_CHANGED,
  type ApproveInput,
  type AuditEntry,
  type RejectInput,
  type Verification,
  type VerificationStatus,
} from '@bulkcart/contracts';
import type { Db, Tx } from '../../db/client.ts';
import { user } from '../../db/schema/auth.ts';
import { businessProfiles, permitKey, verificationAudit } from '../../db/schema/business.ts';
import { queryRows } from '../../db/rows.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { decodeCursor, takePage, type Page } from '../../lib/pagination.ts';
import type { SessionUser } from '../accounts/session.ts';
import { profileColumns, readDocument, toBusinessProfile, type ProfileView, type StoredDocument } from './business.service.ts';
import type { Notice, Notify } from './expiry-sweep.ts';

/**
 * The operators' side (docs/decisions/014-business-verification.md): the queue, the decisions and
 * the audit trail. Every decision and its audit row commit together or not at all.
 */

const idSchema = z.uuid();
const verificationNotFound = () => notFound('Verification not found');

/** A malformed id names no verification: the same 404 as an unknown one. */
function parseId(id: string): string {
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) throw verificationNotFound();
  return parsed.data.toLowerCase();
}

/**
 * GET /api/admin/verifications: oldest submission first (queue_seq ascending), keyset-paged on
 * (status, queue_seq), which the index business_profiles_queue_idx serves.
 */
export async function listVerifications(
  db: Db,
  input: { status: Exclude<VerificationStatus, 'none'>; limit: number; cursor?: string },
): Promise<Page<Verification>> {
  const after = decodeCursor(input.cursor);
  const rows = await db
    .select({ ...profileColumns, email: user.email, name: user.name, seq: sql<number>`coalesce(${businessProfiles.queueSeq}, 0)`.mapWith(Number) })
    .from(businessProfiles)
    .innerJoin(user, eq(user.id, businessProfiles.userId))
    .where(and(eq(businessProfiles.status, input.status), after !== null ? gt(businessProfiles.queueSeq, after) : undefined))
    .orderBy(asc(businessProfiles.queueSeq))
    .limit(input.limit + 1);
  const page = takePage(rows, input.limit);
  const samePermit = await samePermitOf(
    db,
    page.items.map((row) => row.id),
  );
  return {
    items: page.items.map((row) => toVerification(row, samePermit)),
    nextCursor: page.nextCursor,
  };
}

type SamePermit = Verification['samePermit'];

/**
 * For each profile id, the other accounts that submitted its permit number, newest submission first:
 * at most SAME_PERMIT_SHOWN, one more read to tell whether there are more. One query for a page, each
 * entry's lookup a bounded scan of business_profiles_permit_idx (permitKey, queue_seq).
 */
async function samePermitOf(db: Db, ids: string[]): Promise<Map<string, SamePermit>> {
  const found = new Map<string, SamePermit>(ids.map((id) => [id, { accounts: [], more: false }]));
  if (ids.length === 0) return found;
  const rows = await queryRows<{ for_id: string; email: string; legal_name: string; permit_region: string; status: VerificationStatus }>(
    db,
    samePermitQuery(ids),
  );
  for (const row of rows) {
    const entry = found.get(row.for_id);
    if (!entry) continue;
    if (entry.accounts.length === SAME_PERMIT_SHOWN) entry.more = true;
    else entry.accounts.push({ email: row.email, legalName: row.legal_name, permitRegion: row.permit_region, status: row.status });
  }
  return found;
}

/** The statement of samePermitOf (its test reads the plan of exactly this). */
export function samePermitQuery(ids: string[]): SQL {
  return sql`SELECT q.id AS for_id, u.email, m.legal_name, m.permit_region, m.status
    FROM business_profiles q
    CROSS JOIN LATERAL (
      SELECT o.user_id, o.legal_name, o.permit_region, o.status, o.queue_seq
      FROM business_profiles o
      WHERE ${permitKey(sql`o.permit_number`)} = ${permitKey(sql`q.permit_number`)}
        AND o.id <> q.id AND o.queue_seq IS NOT NULL
      ORDER BY o.queue_seq DESC
      LIMIT ${SAME_PERMIT_SHOWN + 1}
    ) m
    JOIN "user" u ON u.id = m.user_id
    WHERE q.id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
    ORDER BY q.id, m.queue_seq DESC`;
}

function toVerification(row: ProfileView & { email: string; name: string }, samePermit: Map<string, SamePermit>): Verification {
  return {
    _id: row.id,
    email: row.email,
    name: row.name,
    revision: row.revision,
    ...toBusinessProfile(row),
    samePermit: samePermit.get(row.id) ?? { accounts: [], more: false },
  };
}

export async function readVerificationDocument(db: Db, id: string): Promise<StoredDocument> {
  return readDocument(db, eq(businessProfiles.id, parseId(id)));
}

interface Decision {
  action: 'approve' | 'reject';
  reason: string | null;
  /** The revision the operator looked at; undefined when the client sent none. */
  revision: string | undefined;
}

/**
 * Approve or reject a pending verification, as of the revision the operator looked at (decision 016).
 * The guarded UPDATE matches only a pending profile still at that revision, so of two operators
 * deciding at once one wins and the other is told it was decided already, and an edit by the buyer
 * between the look and the click voids the click; a permit past its date cannot be approved.
 */
/** What the buyer is told of a decision, in the bell and by e-mail (a rejection with its reason). */
export function decisionNotice(decision: Pick<Decision, 'action' | 'reason'>): Notice {
  if (decision.action === 'approve') {
    return { kind: 'verification-approved', title: 'Your business is verified', body: 'Wholesale volume prices now apply to your orders.' };
  }
  return {
    kind: 'verification-rejected',
    title: 'Your business verification was not approved',
    body: `Reason: ${(decision.reason ?? '').replace(/[.\s]+$/, '')}. Correct your business profile or upload a new document to send it for review again.`,
  };
}

async function decide(db: Db, operator: SessionUser, rawId: string, decision: Decision, notify: Notify): Promise<Verification> {
  const id = parseId(rawId);
  const today = new Date().toISOString().slice(0, 10);
  const { revision } = decision;
  await db.transaction(async (tx) => {
    if (revision === undefined) return explainRefusal(tx, id, decision);
    const [decided] = await tx
      .update(businessProfiles)
      .set({
        status: decision.action === 'approve' ? 'verified' : 'rejected',
        reason: decision.reason,
        reviewedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(businessProfiles.id, id),
          eq(businessProfiles.status, 'pending'),
          eq(businessProfiles.revision, revision),
          decision.action === 'approve' ? gt(businessProfiles.permitExpires, today) : undefined,
        ),
      )
      .returning({ userId: businessProfiles.userId });
    if (!decided) return explainRefusal(tx, id, decision);
    const [subject] = await tx.select({ email: user.email }).from(user).where(eq(user.id, decided.userId));
    await tx.insert(verificationAudit).values({
      actorId: operator.id,
      actorEmail: operator.email,
      action: decision.action,
      verificationId: id,
      subjectEmail: subject?.email ?? '',
      reason: decision.reason,
      revision,
    });
    // In the decision's transaction: the buyer is told exactly when the decision stands.
    await notify(decided.userId, decisionNotice(decision), tx);
  });
  const [row] = await db
    .select({ ...profileColumns, email: user.email, name: user.name })
    .from(businessProfiles)
    .innerJoin(user, eq(user.id, businessProfiles.userId))
    .where(eq(businessProfiles.id, id));
  if (!row) throw verificationNotFound();
  return toVerification(row, await samePermitOf(db, [id]));
}

async function explainRefusal(tx: Tx, id: string, decision: Decision): Promise<never> {
  const [current] = await tx
    .select({ status: businessProfiles.status, revision: businessProfiles.revision })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, id));
  if (!current) throw verificationNotFound();
  if (current.status !== 'pending') {
    throw new AppError('CONFLICT', `This verification is ${current.status}, not pending: it was decided already or not yet submitted.`, {
      title: 'Not pending',
    });
  }
  if (current.revision !== decision.revision) throw new AppError('CONFLICT', SUBMISSION_CHANGED.message, { title: SUBMISSION_CHANGED.title });
  throw new AppError(
    'CONFLICT',
    `The permit has expired, so it cannot be approved${decision.action === 'approve' ? '; reject it with a reason instead' : ''}.`,
    {
      title: 'Permit expired',
    },
  );
}

export function approveVerification(db: Db, operator: SessionUser, id: string, input: ApproveInput, notify: Notify): Promise<Verification> {
  return decide(db, operator, id, { action: 'approve', reason: null, revision: input.revision }, notify);
}

export function rejectVerification(db: Db, operator: SessionUser, id: string, input: RejectInput, notify: Notify): Promise<Verification> {
  return decide(db, operator, id, { action: 'reject', reason: input.reason, revision: input.revision }, notify);
}

/** GET /api/admin/audit: newest first on seq (its unique index), read-only. */
export async function listAudit(db: Db, input: { limit: number; cursor?: string }): Promise<Page<AuditEntry>> {
  const before = decodeCursor(input.cursor);
  const rows = await db
    .select()
    .from(verificationAudit)
    .where(before !== null ? lt(verificationAudit.seq, before) : undefined)
    .orderBy(desc(verificationAudit.seq))
    .limit(input.limit + 1);
  const page = takePage(rows, input.limit);
  return {
    items: page.items.map((row) => ({
      _id: row.id,
      at: row.at.toISOString(),
      actorEmail: row.actorEmail,
      action: row.action as AuditEntry['action'],
      verificationId: row.verificationId,
      subjectEmail: row.subjectEmail,
      reason: row.reason,
      revision: row.revision,
    })),
    nextCursor: page.nextCursor,
  };
}
