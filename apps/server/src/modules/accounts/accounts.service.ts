import { and, desc, eq, gt, inArray, ne, or, sql } from 'drizzle-orm';
import type { AccountSession, DeleteAccountInput } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { account, session, user } from '../../db/schema/auth.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import { products } from '../../db/schema/catalog.ts';
import { notifications, orders, shipToAddresses } from '../../db/schema/orders.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Auth } from './auth.ts';
import type { SessionUser } from './session.ts';

/** The most sessions the settings page lists; older ones are still signed out by "everywhere else". */
const SESSIONS_SHOWN = 50;

/** "Chrome on Windows" from a User-Agent, without a parser library: the families people recognise. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : null;
  const system = /iPhone|iPad|iPod/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}

/** The account's live sessions, newest activity first: device, place, times; never a token. */
export async function listSessions(db: Db, me: SessionUser): Promise<AccountSession[]> {
  const rows = await db
    .select({ id: session.id, userAgent: session.userAgent, ipAddress: session.ipAddress, createdAt: session.createdAt, updatedAt: session.updatedAt })
    .from(session)
    .where(and(eq(session.userId, me.id), gt(session.expiresAt, sql`now()`)))
    .orderBy(desc(session.updatedAt), desc(session.id))
    .limit(SESSIONS_SHOWN);
  return rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.userAgent),
    place: row.ipAddress || null,
    signedInAt: row.createdAt.toISOString(),
    lastSeenAt: row.updatedAt.toISOString(),
    current: row.id === me.sessionId,
  }));
}

/** Signs out every session of the account but the one asking; answers how many ended. */
export async function signOutOtherSessions(db: Db, me: SessionUser): Promise<{ signedOut: number }> {
  const ended = await db
    .delete(session)
    .where(and(eq(session.userId, me.id), ne(session.id, me.sessionId)))
    .returning({ id: session.id });
  return { signedOut: ended.length };
}

const OPEN_ORDER_STATUSES = ['placed', 'accepted', 'shipped'] as const;

/**
 * Deletes an account the way docs/product/rules.md describes: orders stay, because the other side of
 * each needs them (they carry the buyer's and seller's names as they were), while everything that is
 * the person's own goes: sign-in, sessions, saved address, business profile and its document,
 * notifications and listed products. The user row stays as an anonymous tombstone so the orders'
 * references hold. Refused while an order is still open on either side, and the password confirms it is
 * the owner rather than a borrowed session (accounts that only sign in with Google have none to give).
 */
export async function deleteAccount(db: Db, auth: Auth, me: SessionUser, input: DeleteAccountInput): Promise<void> {
  const context = await auth.$context;
  const credential = await context.internalAdapter.findCredentialAccount(me.id);
  if (credential?.password) {
    const matches = input.password ? await context.password.verify({ hash: credential.password, password: input.password }) : false;
    if (!matches) throw new AppError('VALIDATION', 'That is not your password.', { fieldErrors: { password: ['That is not your password.'] } });
  }
  await db.transaction(async (tx) => {
    // The lock on the user row makes this wait for (and then see) an order being placed right now.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, me.id)).for('update');
    const [open] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(or(eq(orders.buyerId, me.id), eq(orders.sellerId, me.id)), inArray(orders.status, [...OPEN_ORDER_STATUSES])))
      .limit(1);
    if (open) {
      throw new AppError('CONFLICT', 'You still have open orders. Finish or cancel them before deleting your account.', { title: 'Open orders' });
    }
    await tx.delete(products).where(eq(products.ownerId, me.id));
    await tx.delete(businessProfiles).where(eq(businessProfiles.userId, me.id));
    await tx.delete(shipToAddresses).where(eq(shipToAddresses.userId, me.id));
    await tx.delete(notifications).where(eq(notifications.userId, me.id));
    await tx.delete(session).where(eq(session.userId, me.id));
    await tx.delete(account).where(eq(account.userId, me.id));
    await tx
      .update(user)
      .set({
        name: 'Deleted account',
        email: `deleted-${me.id}@deleted.invalid`,
        image: null,
        emailVerified: false,
        ownerProvenAt: null,
        updatedAt: sql`now()`,
      })
      .where(eq(user.id, me.id));
  });
}
