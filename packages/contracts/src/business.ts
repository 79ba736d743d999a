import { z } from 'zod';
import { cursorSchema } from './cursor.ts';
import { addressSchema } from './address.ts';
import { VERIFICATION_MODES, VERIFICATION_STATUSES } from './verification.ts';

/**
 * Business verification (docs/decisions/014-business-verification.md): the profile a buyer submits,
 * the review an operator makes, and what the buyer's status changes. No zod-free copy is needed: the
 * home page reads only `verification` from /api/me, typed by inference.
 */
export const BUSINESS_TYPES = ['retail_store', 'online_seller', 'other'] as const;
export const BUSINESS_TYPE_LABELS: Record<(typeof BUSINESS_TYPES)[number], string> = {
  retail_store: 'Retail store',
  online_seller: 'Online seller',
  other: 'Other',
};

/** The document limits, shared by the upload form (checked before sending) and the server. */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;
export const DOCUMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** YYYY-MM-DD, a real calendar date. */
const isoDate = z
  .string({ error: 'Permit expiry date is required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the expiry date as YYYY-MM-DD')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'Enter a real date');

/** Today in UTC as YYYY-MM-DD: the day permits expire on, the same for every server. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The furthest expiry a permit may have: no licence runs longer, so a later date is a typo. */
export const PERMIT_MAX_YEARS = 10;

/** The same day `PERMIT_MAX_YEARS` years from `now` (UTC), as YYYY-MM-DD; 29 February falls to 1 March. */
export function latestPermitExpiry(now: Date = new Date()): string {
  const d = new Date(`${utcToday(now)}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + PERMIT_MAX_YEARS);
  return utcToday(d);
}

/** PUT /api/business. */
export const businessProfileInputSchema = z.object({
  legalName: text('Legal business name', 160),
  businessType: z.enum(BUSINESS_TYPES, { error: 'Choose a business type' }),
  permitNumber: text('Permit number', 64).regex(/^[A-Za-z0-9][A-Za-z0-9 ./-]*$/, 'Use letters, digits, spaces, ".", "/" or "-"'),
  permitRegion: text('Issuing region', 80),
  permitExpires: isoDate
    .refine((v) => v > utcToday(), 'This permit has already expired')
    .refine((v) => v <= latestPermitExpiry(), `An expiry more than ${PERMIT_MAX_YEARS} years ahead is not accepted: check the date`)
    .meta({ description: `YYYY-MM-DD, after today and at most ${PERMIT_MAX_YEARS} years ahead (UTC)` }),
  address: addressSchema,
});
export type BusinessProfileInput = z.infer<typeof businessProfileInputSchema>;

export const businessDocumentSchema = z.object({
  name: z.string(),
  type: z.enum(DOCUMENT_TYPES),
  size: z.int(),
  uploadedAt: z.string().describe('ISO 8601 timestamp'),
});

/** GET/PUT /api/business: the profile (null fields until saved), its status and the reviewer's reason. */
export const businessProfileSchema = z.object({
  status: z.enum(VERIFICATION_STATUSES),
  reason: z.string().nullable().describe("The reviewer's reason, when rejected"),
  profile: z
    .object({
      legalName: z.string(),
      businessType: z.enum(BUSINESS_TYPES),
      permitNumber: z.string(),
      permitRegion: z.string(),
      permitExpires: z.string().describe('YYYY-MM-DD; the status turns expired on this day (UTC)'),
      address: addressSchema,
    })
    .nullable(),
  document: businessDocumentSchema.nullable(),
  submittedAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type BusinessProfile = z.infer<typeof businessProfileSchema>;

/** How many other accounts with the same permit number a queue entry names (one more sets `more`). */
export const SAME_PERMIT_SHOWN = 5;

/** Another account that submitted the same permit number (compared by letters and digits, any case). */
export const samePermitAccountSchema = z.object({
  email: z.string(),
  legalName: z.string(),
  permitRegion: z.string(),
  status: z.enum(VERIFICATION_STATUSES),
});
export type SamePermitAccount = z.infer<typeof samePermitAccountSchema>;

/** One entry of the operators' queue. */
export const verificationSchema = businessProfileSchema.extend({
  samePermit: z
    .object({
      accounts: z.array(samePermitAccountSchema).max(SAME_PERMIT_SHOWN),
      more: z.boolean().describe(`True when more than ${SAME_PERMIT_SHOWN} other accounts have this permit number`),
    })
    .describe(
      `The other accounts that submitted the same permit number (letters and digits compared, any case), newest submission first, at most ${SAME_PERMIT_SHOWN}: an empty list means none. A flag for the operator, not a refusal.`,
    ),
  _id: z.string(),
  email: z.string(),
  name: z.string(),
  revision: z
    .string()
    .describe(
      'Opaque; changes whenever the buyer edits the profile or uploads a document. Send it back with approve or reject: a decision on another revision is refused (409).',
    ),
});
export type Verification = z.infer<typeof verificationSchema>;
export const verificationListSchema = z.array(verificationSchema);

export const verificationListQuerySchema = z.object({
  status: z.enum(['pending', 'verified', 'rejected', 'expired'], { error: 'status must be one of pending, verified, rejected, expired' }).default('pending'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(20),
  cursor: z.optional(cursorSchema),
});

/**
 * The revision the operator looked at. Optional to the parser so that a decision without it gets the
 * answer a stale one gets (409 "This submission changed since you opened it"), not a 422.
 */
const decisionRevision = z
  .string()
  .max(64)
  .optional()
  .describe(
    'The `revision` of the queue entry the operator looked at. Required in practice: missing or not the current one, the answer is 409 and nothing is recorded.',
  );

/** POST /api/admin/verifications/{id}/approve. */
export const approveInputSchema = z.object({ revision: decisionRevision });
export type ApproveInput = z.infer<typeof approveInputSchema>;

/** POST /api/admin/verifications/{id}/reject. */
export const rejectInputSchema = z.object({
  reason: text('Reason', 500),
  revision: decisionRevision,
});
export type RejectInput = z.infer<typeof rejectInputSchema>;

/** The 409 of a decision on a revision the buyer has since changed (or none sent). */
export const SUBMISSION_CHANGED = {
  title: 'This submission changed since you opened it',
  message: 'This submission changed since you opened it. Look at it again before deciding.',
} as const;

export const AUDIT_ACTIONS = ['approve', 'reject'] as const;
export const auditEntrySchema = z.object({
  _id: z.string(),
  at: z.string().describe('ISO 8601 timestamp'),
  actorEmail: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  verificationId: z.string(),
  subjectEmail: z.string(),
  reason: z.string().nullable(),
  revision: z.string().nullable().describe('The revision decided on; null for decisions recorded before revisions existed'),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditListSchema = z.array(auditEntrySchema);
export const auditListQuerySchema = verificationListQuerySchema.pick({ limit: true, cursor: true });

/** What /api/me tells the browser about how this buyer is priced (status of the signed-in user). */
export const meVerificationSchema = z.object({
  mode: z.enum(VERIFICATION_MODES),
  status: z.enum(VERIFICATION_STATUSES),
  /** Whether volume breaks apply to this buyer: verified, or the rule is off. */
  breaksApply: z.boolean(),
  /** Whether this buyer may place orders: false only under `required` for the unverified. */
  canOrder: z.boolean(),
});
export type MeVerification = z.infer<typeof meVerificationSchema>;
