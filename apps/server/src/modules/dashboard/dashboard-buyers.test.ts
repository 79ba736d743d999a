import { expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { DASHBOARD_PERIODS } from '@bulkcart/contracts';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { insertBuyers } from '../../../test/helpers/accounts.ts';
import { placedAt } from '../../../test/helpers/dashboard-rollup.ts';
import { queryRows } from '../../db/rows.ts';
import { getDashboard } from './dashboard.service.ts';
import { periodRanges, type DayRange } from './dashboard-period.ts';

/**
 * Distinct and repeat buyers of both periods come from one pass over the orders (readBuyers): random
 * orders of one seller over two and a half years (counted, cancelled, declined, on the periods' edges
 * and in the stretch between 12 months and the year before), then every period's figures against a
 * count over the orders, period by period.
 */

const NOW = new Date('2026-03-18T15:00:00Z');
const DAY_MS = 86_400_000;

const orderArbitrary = fc.record({
  buyer: fc.nat(4),
  // Whole days back, often on a period's first or last day (7d, 30d, 90d, then 12m: from, the day
  // after the previous period, its first day) or in the 12 days between 12m's two periods.
  daysBack: fc.oneof(fc.integer({ min: 0, max: 900 }), fc.constantFrom(6, 7, 13, 14, 29, 30, 59, 60, 89, 90, 179, 180, 351, 352, 358, 363, 364, 716, 717)),
  at: fc.constantFrom(0, 1, 12 * 3600 * 1000, DAY_MS - 1),
  status: fc.constantFrom('delivered', 'delivered', 'accepted', 'cancelled', 'declined'),
});

describeEachDatabase('dashboard buyers: both periods from one pass', (env) => {
  it('counts distinct and repeat buyers of the current and the previous period as the orders say', async () => {
    const [seller, ...buyers] = await insertBuyers(env().db(), 6, 'Buyers Test');
    const sellerId = seller!.id;
    const dayStart = (iso: string) => sql`(${iso}::date::timestamp AT TIME ZONE 'UTC')`;
    async function expected(range: DayRange) {
      const [row] = await queryRows<Record<string, unknown>>(
        env().db(),
        sql`SELECT count(DISTINCT o.buyer_id)::int AS buyers,
                   count(DISTINCT o.buyer_id) FILTER (WHERE EXISTS (
                     SELECT 1 FROM orders p WHERE p.seller_id = o.seller_id AND p.buyer_id = o.buyer_id
                       AND p.status NOT IN ('cancelled', 'declined') AND p.created_at < ${dayStart(range.from)}))::int AS repeat_buyers
            FROM orders o
            WHERE o.seller_id = ${sellerId} AND o.status NOT IN ('cancelled', 'declined')
              AND o.created_at >= ${dayStart(range.from)} AND o.created_at < ${dayStart(range.until)}`,
      );
      return { buyers: Number(row?.buyers), repeatBuyers: Number(row?.repeat_buyers) };
    }
    await fc.assert(
      fc.asyncProperty(fc.array(orderArbitrary, { minLength: 1, maxLength: 12 }), async (list) => {
        await env()
          .db()
          .execute(sql`DELETE FROM orders WHERE seller_id = ${sellerId}`);
        for (const o of list) {
          const createdAt = placedAt(NOW, o.daysBack, o.at);
          const buyer = buyers[o.buyer]!;
          await env()
            .db()
            .execute(
              sql`INSERT INTO orders (status, buyer_id, buyer_email, buyer_name, seller_id, seller_name, total_cents, ship_by, created_at, updated_at)
                  VALUES (${o.status}, ${buyer.id}, ${buyer.email}, 'Buyer', ${sellerId}, 'Seller', 100, ${createdAt}::timestamptz::date + 2, ${createdAt}, ${createdAt})`,
            );
        }
        for (const period of DASHBOARD_PERIODS) {
          const ranges = periodRanges(period, NOW);
          const d = await getDashboard({ db: env().db(), user: { id: sellerId } as never, clock: () => NOW }, { period });
          expect({ period, buyers: d.kpis.buyers, repeatBuyers: d.kpis.repeatBuyers }).toEqual({ period, ...(await expected(ranges.current)) });
          expect({ period, buyers: d.previous.buyers, repeatBuyers: d.previous.repeatBuyers }).toEqual({ period, ...(await expected(ranges.previous)) });
        }
      }),
      { numRuns: 40 },
    );
  });
});
