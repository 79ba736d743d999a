import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { bigint, check, customType, date, index, integer, jsonb, pgSequence, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Address } from '@bulkcart/contracts';
import { user } from './auth.ts';

/** bytea as a Node Buffer (PGlite answers a Uint8Array, pg a Buffer: both become a Buffer). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A permit number as the queue compares it: letters and digits only, upper case, so "sr-123 456" and
 * "SR123456" are one permit. The index business_profiles_permit_idx is on this very expression.
 */
export function permitKey(column: SQLWrapper): SQL {
  return sql`upper(regexp_replace(${column}, '[^A-Za-z0-9]', '', 'g'))`;
}

/** Each submission takes the next number: the operators' queue is served oldest submission first. */
export const businessQueueSeq = pgSequence('business_queue_seq');

/**
 * One business profile per user (docs/decisions/014-business-verification.md). The document's bytes
 * live in business_documents (decision 016): in the database, so every server process sees it and
 * nothing is ever written to local disk, but outside this row, so replacing a document rewrites no
 * profile and the profile table stays small for the reads every purchase makes.
 */
export const businessProfiles = pgTable(
  'business_profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .unique()
      .references(() => user.id, { onDelete: 'cascade' }),
    legalName: text('legal_name').notNull(),
    businessType: text('business_type').notNull(),
    permitNumber: text('permit_number').notNull(),
    permitRegion: text('permit_region').notNull(),
    permitExpires: date('permit_expires', { mode: 'string' }).notNull(),
    address: jsonb('address').$type<Address>().notNull(),
    status: text('status').notNull().default('none'),
    reason: text('reason'),
    /**
     * Opaque; a new random value whenever the profile or document changes. The operator's decision
     * names the revision it was made on and is refused on any other (decision 016).
     */
    revision: text('revision')
      .notNull()
      .default(sql`md5(gen_random_uuid()::text)`),
    documentType: text('document_type'),
    documentName: text('document_name'),
    documentSize: integer('document_size'),
    documentUploadedAt: timestamp('document_uploaded_at', { withTimezone: true }),
    /** Set from business_queue_seq each time the profile is (re)submitted; the queue's order and cursor. */
    queueSeq: bigint('queue_seq', { mode: 'number' }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** The expiry date the 14-day notice was sent for: a new permit date gets its own notice. */
    expiryWarnedFor: date('expiry_warned_for', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('business_profiles_status_known', sql`${t.status} IN ('none', 'pending', 'verified', 'rejected', 'expired')`),
    check('business_profiles_type_known', sql`${t.businessType} IN ('retail_store', 'online_seller', 'other')`),
    check('business_profiles_document_size', sql`${t.documentSize} IS NULL OR ${t.documentSize} BETWEEN 1 AND 5242880`),
    index('business_profiles_queue_idx').on(t.status, t.queueSeq),
    index('business_profiles_expiry_idx').on(t.status, t.permitExpires),
    // The queue's "same permit number" flag: other submissions with this permit, newest first.
    index('business_profiles_permit_idx').on(permitKey(t.permitNumber), t.queueSeq),
  ],
);
export type BusinessProfileRow = typeof businessProfiles.$inferSelect;

/** The permit file of a profile, one per profile, replaced in place by a new upload. */
export const businessDocuments = pgTable(
  'business_documents',
  {
    profileId: uuid('profile_id')
      .primaryKey()
      .references(() => businessProfiles.id, { onDelete: 'cascade' }),
    bytes: bytea('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('business_documents_size', sql`octet_length(${t.bytes}) BETWEEN 1 AND 5242880`)],
);

/**
 * Every operator decision, append-only: the API has no route that changes or deletes a row, and the
 * emails are copied in so the trail outlives the accounts.
 */
export const verificationAudit = pgTable(
  'verification_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    verificationId: uuid('verification_id').notNull(),
    subjectEmail: text('subject_email').notNull(),
    reason: text('reason'),
    /** The profile's revision the decision was made on; null for decisions made before revisions existed. */
    revision: text('revision'),
  },
  (t) => [check('verification_audit_action_known', sql`${t.action} IN ('approve', 'reject')`)],
);
export type VerificationAuditRow = typeof verificationAudit.$inferSelect;
