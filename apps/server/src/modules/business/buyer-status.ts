import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { breaksApplyFor, canOrderFor, utcToday, type MeVerification, type VerificationMode, type VerificationStatus } from '@bulkcart/contracts';
import type { Db, Tx } from '../../db/client.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import { preparedQuery, slot } from '../../db/prepared.ts';

/**
 * The business module's public face (docs/decisions/014-business-verification.md): what other modules
 * ask about a buyer. A permit past its date counts as expired here even before the sweep has written
 * it, so a purchase never gets wholesale prices on a lapsed permit.
 */

type Reader = Db | Tx;

export function effectiveStatus(status: string, permitExpires: string | null, today = utcToday()): VerificationStatus {
  if (status === 'verified' && permitExpires !== null && permitExpires <= today) return 'expired';
  return status as VerificationStatus;
}

/**
 * The profile's columns a status is computed from, for the purchase paths that join the profile into a
 * read of their own (one round trip) instead of asking buyerStatus.
 */
export const profileStatusColumns = { status: businessProfiles.status, permitExpires: businessProfiles.permitExpires };

/** Those columns as read; both null when the buyer has no profile (a LEFT JOIN that met no row). */
export interface ProfileStatusRow {
  status: string | null;
  permitExpires: string | null;
}

/** The one rule from a read profile to a status: no profile is `none`, a lapsed permit `expired`. */
export function statusOfProfile(row: ProfileStatusRow): VerificationStatus {
  return row.status === null ? 'none' : effectiveStatus(row.status, row.permitExpires);
}

/** The buyer's status now. Inside a purchase transaction pass the transaction: it reads what it will commit with. */
export async function buyerStatus(db: Reader, userId: string): Promise<VerificationStatus> {
  const [row] = await selectProfileStatus(db, { user: userId });
  return statusOfProfile(row ?? { status: null, permitExpires: null });
}

/** Asked on /api/me: prepared once per connection (db/prepared.ts). */
const selectProfileStatus = preparedQuery(
  profileStatusColumns,
  (list) => sql`SELECT ${list} FROM ${businessProfiles} WHERE ${businessProfiles.userId} = ${slot('user')} LIMIT 1`,
);

/** For the seller's order desk's "verified" badge: one buyer… */
export async function isVerifiedBuyer(db: Reader, userId: string): Promise<boolean> {
  return (await buyerStatus(db, userId)) === 'verified';
}

/** …or a page of them in one query (served by the unique index on user_id). */
export async function verifiedBuyers(db: Reader, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: businessProfiles.userId })
    .from(businessProfiles)
    .where(
      and(inArray(businessProfiles.userId, [...new Set(userIds)]), eq(businessProfiles.status, 'verified'), gt(businessProfiles.permitExpires, utcToday())),
    );
  return new Set(rows.map((r) => r.userId));
}

/** How a buyer of this status is priced, and whether they may order at all. */
export function pricingOf(mode: VerificationMode, status: VerificationStatus): MeVerification {
  return { mode, status, breaksApply: breaksApplyFor(mode, status), canOrder: canOrderFor(mode, status) };
}

/** What /api/me says about how this user is priced; signed out is `none`. */
export async function buyerPricing(db: Reader, mode: VerificationMode, userId: string | null): Promise<MeVerification> {
  return pricingOf(mode, userId ? await buyerStatus(db, userId) : 'none');
}
