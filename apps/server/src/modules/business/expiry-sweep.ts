import { and, eq, gt, lte, or, isNull, ne, sql } from 'drizzle-orm';
import { utcToday } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import type { Notice, Notify } from '../notifications/index.ts';

/**
 * Permits that lapse (docs/decisions/014-business-verification.md). A verified buyer whose permit
 * expires within 14 days is told once; on the expiry date (UTC) the status turns `expired` and they are
 * told once more. Each notice is claimed by the same guarded UPDATE that records it, so two runs, or
 * two processes sweeping at once, send it exactly once: the second UPDATE waits for the first's row
 * lock, re-checks its WHERE and finds nothing left to claim.
 */

/** Records nothing: for unit use; background.ts passes the notifications module's verificationNotifier. */
export const recordNothing: Notify = async () => {};

export const WARN_DAYS = 14;

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function expiringNotice(permitExpires: string): Notice {
  return {
    kind: 'verification-expiring',
    title: 'Your business permit expires soon',
    body: `Your permit expires on ${permitExpires}. Upload the renewed permit on your business profile to keep wholesale prices.`,
  };
}

export const EXPIRED_NOTICE: Notice = {
  kind: 'verification-expired',
  title: 'Your business verification has expired',
  body: 'Your permit has expired, so volume prices no longer apply. Upload the renewed permit on your business profile.',
};

export interface SweepResult {
  warned: string[];
  expired: string[];
}

export async function runExpirySweep(db: Db, options: { now?: Date; notify?: Notify } = {}): Promise<SweepResult> {
  const today = utcToday(options.now);
  const notify = options.notify ?? recordNothing;
  const warned = await db.transaction(async (tx) => {
    const rows = await tx
      .update(businessProfiles)
      .set({ expiryWarnedFor: businessProfiles.permitExpires, updatedAt: sql`now()` })
      .where(
        and(
          eq(businessProfiles.status, 'verified'),
          gt(businessProfiles.permitExpires, today),
          lte(businessProfiles.permitExpires, addDays(today, WARN_DAYS)),
          or(isNull(businessProfiles.expiryWarnedFor), ne(businessProfiles.expiryWarnedFor, businessProfiles.permitExpires)),
        ),
      )
      .returning({ userId: businessProfiles.userId, permitExpires: businessProfiles.permitExpires });
    for (const row of rows) await notify(row.userId, expiringNotice(row.permitExpires), tx);
    return rows.map((r) => r.userId);
  });
  const expired = await db.transaction(async (tx) => {
    const rows = await tx
      .update(businessProfiles)
      .set({ status: 'expired', updatedAt: sql`now()` })
      .where(and(eq(businessProfiles.status, 'verified'), lte(businessProfiles.permitExpires, today)))
      .returning({ userId: businessProfiles.userId });
    for (const row of rows) await notify(row.userId, EXPIRED_NOTICE, tx);
    return rows.map((r) => r.userId);
  });
  return { warned, expired };
}

/** How often the background scheduler sweeps (background.ts). */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;
