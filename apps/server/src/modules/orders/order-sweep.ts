import { and, eq, isNull, lt, lte, sql } from 'drizzle-orm';
import { ORDER_MESSAGES, addBusinessDays, toIsoDate, type OrderStatus } from '@bulkcart/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { applyTransition, notifyEvent } from './order-workflow.ts';

/** The instant a placed order runs out of time: three business days after it was placed. */
export function acceptDeadline(placedAt: Date): Date {
  return addBusinessDays(placedAt, 3);
}

const SWEEP_BATCH = 100;

/**
 * One pass of the order sweep (docs/product/rules.md#orders), run by every server process on an
 * interval. Each order is handled by one guarded update, so processes sweeping at once never cancel,
 * restock or notify an order twice: the loser's update waits for the winner's lock, then matches
 * nothing. `now` is the injectable clock.
 *  1. Placed orders three business days old are cancelled "Not accepted in time", stock returned.
 *  2. Accepted orders past their ship-by date are told late, once (late_notified_at).
 */
export async function runOrderSweep(db: Db, config: Config, now: Date): Promise<{ cancelled: number; late: number }> {
  // Three business days are at least three calendar days: that bound finds the candidates by index.
  const oldEnough = new Date(now.getTime() - 3 * 86_400_000);
  const candidates = await db
    .select({ id: orders.id, createdAt: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.status, 'placed'), lte(orders.createdAt, oldEnough)))
    .orderBy(orders.createdAt)
    .limit(SWEEP_BATCH);
  let cancelled = 0;
  for (const candidate of candidates) {
    if (acceptDeadline(candidate.createdAt) > now) continue;
    const row = await db.transaction((tx) =>
      applyTransition(tx, config, {
        orderId: candidate.id,
        actor: { kind: 'system' },
        from: 'placed',
        to: 'cancelled',
        set: { reason: ORDER_MESSAGES.notAcceptedInTime },
        note: ORDER_MESSAGES.notAcceptedInTime,
        restock: true,
      }),
    );
    if (row) cancelled += 1;
  }
  const today = toIsoDate(now);
  const lateCandidates = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'accepted'), isNull(orders.lateNotifiedAt), lt(orders.shipBy, today)))
    .limit(SWEEP_BATCH);
  let late = 0;
  for (const candidate of lateCandidates) {
    const row = await db.transaction(async (tx) => {
      const [flagged] = await tx
        .update(orders)
        .set({ lateNotifiedAt: now, updatedAt: sql`now()` })
        .where(and(eq(orders.id, candidate.id), eq(orders.status, 'accepted' satisfies OrderStatus), isNull(orders.lateNotifiedAt), lt(orders.shipBy, today)))
        .returning();
      if (flagged) await notifyEvent(tx, config, flagged, 'late', { kind: 'system' });
      return flagged;
    });
    if (row) late += 1;
  }
  return { cancelled, late };
}
