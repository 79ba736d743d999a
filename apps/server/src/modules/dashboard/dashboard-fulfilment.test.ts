import { expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { DASHBOARD_PERIODS, ORDER_MESSAGES } from '@bulkcart/contracts';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { insertBuyers } from '../../../test/helpers/accounts.ts';
import { expectRollupToMatchOrders, placedAt } from '../../../test/helpers/dashboard-rollup.ts';
import { queryRows } from '../../db/rows.ts';
import { getDashboard, locateMedian } from './dashboard.service.ts';
import { periodRanges, type DayRange } from './dashboard-period.ts';

/**
 * The fulfilment figures come from the monthly rollup seller_fulfilment_months, the partial months
 * from the orders, and each median's exact value from the orders of its hour bucket (readFulfilment):
 * random orders of one seller over two years, on the periods' edges, with durations that tie, sit on
 * an hour's boundary or a microsecond either side of it, accepted and shipped by later updates (as the
 * desk does) or written at once; then every period's figures against percentile_cont and counts over
 * the orders themselves, and the rollup against its recomputation.
 */

const NOW = new Date('2026-03-18T15:00:00Z');
const DAY_MS = 86_400_000;
const HOUR_US = 3_600_000_000;

/** Durations in microseconds: ties, hour boundaries and their neighbours, and arbitrary ones. */
const durationArbitrary = fc.oneof(
  fc.constantFrom(0, 1, HOUR_US - 1, HOUR_US, HOUR_US + 1, 5 * HOUR_US, 5 * HOUR_US + 500_000, 30 * HOUR_US, 30 * HOUR_US - 1),
  fc.integer({ min: 0, max: 120 * HOUR_US }),
);

const orderArbitrary = fc.record({
  daysBack: fc.oneof(fc.integer({ min: 0, max: 750 }), fc.constantFrom(0, 6, 7, 17, 18, 29, 30, 46, 47, 89, 90, 351, 352, 365, 716, 717)),
  at: fc.constantFrom(0, 1, 12 * 3600 * 1000, DAY_MS - 1),
  outcome: fc.constantFrom('placed', 'accepted', 'shipped', 'shipped', 'delivered', 'expired', 'cancelled', 'declined'),
  accept: durationArbitrary,
  ship: durationArbitrary,
  late: fc.boolean(),
  byUpdate: fc.boolean(),
});

describeEachDatabase('dashboard fulfilment: monthly rollup, partial months and exact medians', (env) => {
  it('answers every fulfilment figure of every period as percentile_cont and counts over the orders', async () => {
    const [seller, buyer] = await insertBuyers(env().db(), 2, 'Fulfilment Test');
    const sellerId = seller!.id;
    const dayStart = (iso: string) => sql`(${iso}::date::timestamp AT TIME ZONE 'UTC')`;
    async function expected(range: DayRange) {
      const [row] = await queryRows<Record<string, unknown>>(
        env().db(),
        sql`SELECT
              round((percentile_cont(0.5) WITHIN GROUP (ORDER BY date_part('epoch', o.accepted_at - o.created_at)) / 3600)::numeric, 1) AS accept_hours,
              round((percentile_cont(0.5) WITHIN GROUP (ORDER BY date_part('epoch', o.shipped_at - o.accepted_at)) / 3600)::numeric, 1) AS ship_hours,
              count(o.shipped_at)::int AS shipped,
              count(*) FILTER (WHERE (o.shipped_at AT TIME ZONE 'UTC')::date > o.ship_by)::int AS late,
              count(*) FILTER (WHERE o.status = 'cancelled' AND o.reason = ${ORDER_MESSAGES.notAcceptedInTime})::int AS expired
            FROM orders o WHERE o.seller_id = ${sellerId} AND o.created_at >= ${dayStart(range.from)} AND o.created_at < ${dayStart(range.until)}`,
      );
      const orNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
      return {
        medianHoursToAccept: orNull(row?.accept_hours),
        medianHoursToShip: orNull(row?.ship_hours),
        shipped: Number(row?.shipped),
        shippedLate: Number(row?.late),
        expiredUnaccepted: Number(row?.expired),
      };
    }
    await fc.assert(
      fc.asyncProperty(fc.array(orderArbitrary, { minLength: 1, maxLength: 14 }), async (list) => {
        await env()
          .db()
          .execute(sql`DELETE FROM orders WHERE seller_id = ${sellerId}`);
        for (const o of list) {
          const createdAt = placedAt(NOW, o.daysBack, o.at);
          const accepted = ['accepted', 'shipped', 'delivered'].includes(o.outcome);
          const shipped = o.outcome === 'shipped' || o.outcome === 'delivered';
          const status = o.outcome === 'expired' ? 'cancelled' : o.outcome;
          const reason = o.outcome === 'expired' ? ORDER_MESSAGES.notAcceptedInTime : o.outcome === 'cancelled' ? 'Changed my mind' : null;
          const acceptedAt = accepted ? sql`${createdAt}::timestamptz + ${o.accept}::bigint * interval '1 microsecond'` : sql`NULL::timestamptz`;
          const shippedAt = shipped ? sql`${createdAt}::timestamptz + ${o.accept + o.ship}::bigint * interval '1 microsecond'` : sql`NULL::timestamptz`;
          const shipBy = sql`(${createdAt}::timestamptz AT TIME ZONE 'UTC')::date + ${o.late ? 0 : 10}::int`;
          const [row] = await queryRows<{ id: string }>(
            env().db(),
            sql`INSERT INTO orders (status, buyer_id, buyer_email, buyer_name, seller_id, seller_name, total_cents, ship_by, created_at, updated_at, reason, accepted_at, shipped_at)
                VALUES (${o.byUpdate ? 'placed' : status}, ${buyer!.id}, ${buyer!.email}, 'Buyer', ${sellerId}, 'Seller', 100, ${shipBy}, ${createdAt}, ${createdAt},
                  ${o.byUpdate ? null : reason}, ${o.byUpdate ? sql`NULL::timestamptz` : acceptedAt}, ${o.byUpdate ? sql`NULL::timestamptz` : shippedAt})
                RETURNING id`,
          );
          if (o.byUpdate && accepted)
            await env()
              .db()
              .execute(sql`UPDATE orders SET status = 'accepted', accepted_at = ${acceptedAt} WHERE id = ${row!.id}`);
          if (o.byUpdate && o.outcome !== 'placed')
            await env()
              .db()
              .execute(sql`UPDATE orders SET status = ${status}, reason = ${reason}, shipped_at = ${shippedAt} WHERE id = ${row!.id}`);
        }
        await expectRollupToMatchOrders(env().db());
        for (const period of DASHBOARD_PERIODS) {
          const ranges = periodRanges(period, NOW);
          const { fulfilment } = await getDashboard({ db: env().db(), user: { id: sellerId } as never, clock: () => NOW }, { period });
          const { lateShare: _share, ...figures } = fulfilment;
          expect({ period, ...figures }).toEqual({ period, ...(await expected(ranges.current)) });
        }
      }),
      { numRuns: 40 },
    );
  });
});

it('locates the two middle values of a histogram, across buckets when they straddle one', () => {
  expect(locateMedian([])).toBeNull();
  expect(locateMedian([{ hours: 3, orders: 1 }])).toEqual({ hours: [3], offset: 0, take: 1 });
  // Four values: ranks 1 and 2, the last of bucket 2 and the first of bucket 7.
  expect(
    locateMedian([
      { hours: 2, orders: 2 },
      { hours: 7, orders: 2 },
    ]),
  ).toEqual({ hours: [2, 7], offset: 1, take: 2 });
  // Five values: rank 2, the first of bucket 5.
  expect(
    locateMedian([
      { hours: -1, orders: 2 },
      { hours: 5, orders: 3 },
    ]),
  ).toEqual({ hours: [5], offset: 0, take: 1 });
});
