import { eq, sql } from 'drizzle-orm';
import type { Address, BusinessProfile, BusinessProfileInput, DocumentType } from '@bulkcart/contracts';
import type { Db, Tx } from '../../db/client.ts';
import { businessDocuments, businessProfiles, type BusinessProfileRow } from '../../db/schema/business.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { effectiveStatus } from './buyer-status.ts';

/**
 * A buyer's own business profile (docs/decisions/014-business-verification.md). Status:
 * none → pending (a complete profile with a document) → verified | rejected (reason) → expired.
 * A verified buyer who changes the legal name, the permit (number, region, expiry) or the document goes
 * back to pending. Any change at all gives the profile a new revision (decision 016), which voids an
 * operator's look at the old one.
 */

/** Every column but the file itself: reads that do not serve the document never fetch it. */
export const profileColumns = {
  id: businessProfiles.id,
  userId: businessProfiles.userId,
  legalName: businessProfiles.legalName,
  businessType: businessProfiles.businessType,
  permitNumber: businessProfiles.permitNumber,
  permitRegion: businessProfiles.permitRegion,
  permitExpires: businessProfiles.permitExpires,
  address: businessProfiles.address,
  status: businessProfiles.status,
  reason: businessProfiles.reason,
  revision: businessProfiles.revision,
  documentType: businessProfiles.documentType,
  documentName: businessProfiles.documentName,
  documentSize: businessProfiles.documentSize,
  documentUploadedAt: businessProfiles.documentUploadedAt,
  queueSeq: businessProfiles.queueSeq,
  submittedAt: businessProfiles.submittedAt,
  reviewedAt: businessProfiles.reviewedAt,
};
export type ProfileView = Omit<BusinessProfileRow, 'expiryWarnedFor' | 'createdAt' | 'updatedAt'>;

export function toBusinessProfile(row: ProfileView | undefined): BusinessProfile {
  if (!row) return { status: 'none', reason: null, profile: null, document: null, submittedAt: null, reviewedAt: null };
  const status = effectiveStatus(row.status, row.permitExpires);
  return {
    status,
    reason: status === 'rejected' ? row.reason : null,
    profile: {
      legalName: row.legalName,
      businessType: row.businessType as BusinessProfileInput['businessType'],
      permitNumber: row.permitNumber,
      permitRegion: row.permitRegion,
      permitExpires: row.permitExpires,
      address: row.address,
    },
    document:
      row.documentType && row.documentName && row.documentSize && row.documentUploadedAt
        ? { name: row.documentName, type: row.documentType as DocumentType, size: row.documentSize, uploadedAt: row.documentUploadedAt.toISOString() }
        : null,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

export async function getBusinessProfile(db: Db, userId: string): Promise<BusinessProfile> {
  const [row] = await db.select(profileColumns).from(businessProfiles).where(eq(businessProfiles.userId, userId)).limit(1);
  return toBusinessProfile(row);
}

/** The columns that put a profile in the queue: pending, with the next queue number. */
function submission() {
  return { status: 'pending', reason: null, queueSeq: sql`nextval('business_queue_seq')`, submittedAt: sql`now()`, reviewedAt: null } as const;
}

/** A revision nobody can predict or has seen: the same expression as the column's default. */
const newRevision = () => sql`md5(gen_random_uuid()::text)`;

async function lockOwnRow(tx: Tx, userId: string): Promise<ProfileView | undefined> {
  const [row] = await tx.select(profileColumns).from(businessProfiles).where(eq(businessProfiles.userId, userId)).for('update');
  return row;
}

/** What an operator vouches for: who the business is and which permit it holds. */
function vouchedChanged(row: ProfileView, input: BusinessProfileInput): boolean {
  return (
    row.legalName !== input.legalName ||
    row.permitNumber !== input.permitNumber ||
    row.permitRegion !== input.permitRegion ||
    row.permitExpires !== input.permitExpires
  );
}

/** jsonb keeps its own key order and drops nothing, so fields are compared one by one, absent as null. */
function sameAddress(a: Address, b: Address): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as Array<keyof Address>);
  return [...keys].every((key) => (a[key] ?? null) === (b[key] ?? null));
}

function anythingChanged(row: ProfileView, input: BusinessProfileInput): boolean {
  return vouchedChanged(row, input) || row.businessType !== input.businessType || !sameAddress(row.address, input.address);
}

/**
 * PUT /api/business. With a document on file, a save submits the profile for review unless it is
 * pending already (it keeps its place) or verified with the legal name and permit unchanged (type
 * and address are not what the operator vouched for). A save that changes anything, in any status,
 * takes a new revision; one that changes nothing keeps it, so an operator's look stays valid.
 */
export async function saveBusinessProfile(db: Db, userId: string, input: BusinessProfileInput): Promise<BusinessProfile> {
  const fields = {
    legalName: input.legalName,
    businessType: input.businessType,
    permitNumber: input.permitNumber,
    permitRegion: input.permitRegion,
    permitExpires: input.permitExpires,
    address: input.address,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(businessProfiles)
      .values({ userId, ...fields })
      .onConflictDoNothing({ target: businessProfiles.userId });
    const row = await lockOwnRow(tx, userId);
    if (!row) throw new Error('business profile vanished inside its transaction');
    const status = effectiveStatus(row.status, row.permitExpires);
    const hasDocument = row.documentType !== null;
    const resubmit = hasDocument && status !== 'pending' && (status !== 'verified' || vouchedChanged(row, input));
    const changed = anythingChanged(row, input);
    await tx
      .update(businessProfiles)
      .set({ ...fields, ...(resubmit ? submission() : {}), ...(changed ? { revision: newRevision() } : {}), updatedAt: sql`now()` })
      .where(eq(businessProfiles.userId, userId));
  });
  return getBusinessProfile(db, userId);
}

/**
 * POST /api/business/document: a new document always asks for a new review, under a new revision.
 * The bytes replace the profile's row in business_documents; the profile row takes only the name,
 * type and size, so it stays the same small row whatever is uploaded.
 */
export async function storeBusinessDocument(db: Db, userId: string, file: { bytes: Buffer; type: DocumentType; name: string }): Promise<BusinessProfile> {
  await db.transaction(async (tx) => {
    const [stored] = await tx
      .update(businessProfiles)
      .set({
        documentType: file.type,
        documentName: file.name,
        documentSize: file.bytes.length,
        documentUploadedAt: sql`now()`,
        ...submission(),
        revision: newRevision(),
        updatedAt: sql`now()`,
      })
      .where(eq(businessProfiles.userId, userId))
      .returning({ id: businessProfiles.id });
    if (!stored) throw new AppError('CONFLICT', 'Save your business details first, then upload the permit.', { title: 'Business details needed' });
    await tx
      .insert(businessDocuments)
      .values({ profileId: stored.id, bytes: file.bytes })
      .onConflictDoUpdate({ target: businessDocuments.profileId, set: { bytes: sql`excluded.bytes`, updatedAt: sql`now()` } });
  });
  return getBusinessProfile(db, userId);
}

export interface StoredDocument {
  bytes: Buffer;
  type: DocumentType;
  name: string;
}

/** The document of one profile, chosen by a condition the caller builds from the session or the route. */
export async function readDocument(db: Db, where: ReturnType<typeof eq>): Promise<StoredDocument> {
  const [row] = await db
    .select({ bytes: businessDocuments.bytes, type: businessProfiles.documentType, name: businessProfiles.documentName })
    .from(businessProfiles)
    .innerJoin(businessDocuments, eq(businessDocuments.profileId, businessProfiles.id))
    .where(where)
    .limit(1);
  if (!row?.type || !row.name) throw notFound('No document has been uploaded.');
  return { bytes: row.bytes, type: row.type as DocumentType, name: row.name };
}
