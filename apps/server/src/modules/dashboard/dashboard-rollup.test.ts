import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { toDollars, type Cart, type Dashboard, type DashboardPeriod, type Order } from '@bulkcart/contracts';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { bearer, insertBuyers, type QuickBuyer } from '../../../test/helpers/accounts.ts';
import { seedProduct } from '../../../test/helpers/products.ts';
import { checkout, setLine } from '../../../test/helpers/cart.ts';
import { expectRollupToMatchOrders } from '../../../test/helpers/dashboard-rollup.ts';
import { orders } from '../../db/schema/orders.ts';
import { queryRows } from '../../db/rows.ts';
import { runOrderSweep } from '../orders/sales.service.ts';
import { periodRanges } from './dashboard-period.ts';

/**
 * The dashboard's rollup (migration 0019) stays equal to the orders it sums, whatever happens to them:
 * random sequences of Buy Now orders, multi-seller checkouts, cancels, declines, accepts, shipments,
 * expiries and orders moved to another day, each through the API (or the sweep, or the column a test
 * sets), then the rollup compared with a recomputation from the orders, and the dashboard's figures
 * with sums over the orders themselves.
 */

type Op =
  | { kind: 'buy'; buyer: number; product: number; quantity: number }
  | { kind: 'checkout'; buyer: number; products: number[]; quantity: number }
  | { kind: 'cancel' | 'decline' | 'accept' | 'ship'; pick: number }
  | { kind: 'move'; pick: number; hoursBack: number }
  | { kind: 'expire' };

const SELLERS = 3;
const PRODUCTS_PER_SELLER = 3;
const PRODUCTS = SELLERS * PRODUCTS_PER_SELLER;

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('buy' as const), buyer: fc.nat(3), product: fc.nat(PRODUCTS - 1), quantity: fc.integer({ min: 1, max: 9 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('checkout' as const),
      buyer: fc.nat(3),
      products: fc.uniqueArray(fc.nat(PRODUCTS - 1), { minLength: 1, maxLength: 4 }),
      quantity: fc.integer({ min: 1, max: 5 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('cancel' as const, 'decline' as const, 'accept' as const, 'ship' as const), pick: fc.nat(1000) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(1000), hoursBack: fc.integer({ min: 0, max: 24 * 50 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'expire' as const }) },
);

describeEachDatabase('dashboard rollup: always the sum of the orders', (env) => {
  let sellers: QuickBuyer[];
  let buyers: QuickBuyer[];
  const productIds: string[] = [];

  beforeAll(async () => {
    sellers = await insertBuyers(env().db(), SELLERS, 'Rollup Seller');
    buyers = await insertBuyers(env().db(), 4, 'Rollup Buyer');
    for (let i = 0; i < PRODUCTS; i++) {
      const seller = sellers[i % SELLERS] as QuickBuyer;
      const row = await seedProduct(
        env(),
        { id: seller.id, email: seller.email },
        { name: `Rollup ${i}`, priceCents: 125 + 37 * i, mainquantity: 100_000, minquantity: 1, discount: 0, priceBreaks: [] },
      );
      productIds.push(row.id);
    }
  });

  const send = (method: 'GET' | 'POST' | 'DELETE', url: string, who: QuickBuyer, payload?: Record<string, unknown>) =>
    env().request({ method, url, headers: bearer(who), ...(payload ? { payload } : {}) });

  /** An order of the run picked by `pick`, with its seller, among those in `statuses`. */
  async function pickOrder(pick: number, statuses: Order['status'][]): Promise<{ id: string; buyerId: string; sellerId: string } | undefined> {
    const rows = await queryRows<{ id: string; buyer_id: string; seller_id: string }>(
      env().db(),
      sql`SELECT id, buyer_id, seller_id FROM orders WHERE seller_id IN (${sql.join(
        sellers.map((s) => sql`${s.id}`),
        sql`, `,
      )})
            AND status IN (${sql.join(
              statuses.map((s) => sql`${s}`),
              sql`, `,
            )}) ORDER BY seq`,
    );
    const row = rows[pick % Math.max(rows.length, 1)];
    return row && { id: row.id, buyerId: row.buyer_id, sellerId: row.seller_id };
  }

  const who = (id: string): QuickBuyer => [...sellers, ...buyers].find((u) => u.id === id) as QuickBuyer;

  async function run(op: Op): Promise<void> {
    switch (op.kind) {
      case 'buy': {
        const response = await send('POST', '/api/order', buyers[op.buyer] as QuickBuyer, { productId: productIds[op.product], quantity: op.quantity });
        expect(response.statusCode, response.body).toBe(201);
        return;
      }
      case 'checkout': {
        const buyer = buyers[op.buyer] as QuickBuyer;
        let cart: Cart | undefined;
        for (const product of op.products) cart = await setLine(env(), bearer(buyer), productIds[product] as string, op.quantity);
        const response = await checkout(env(), bearer(buyer), { expectedTotal: cart?.total }, randomUUID());
        expect(response.statusCode, response.body).toBe(201);
        return;
      }
      case 'cancel': {
        const order = await pickOrder(op.pick, ['placed']);
        if (order) expect((await send('DELETE', `/api/order/${order.id}`, who(order.buyerId))).statusCode).toBe(200);
        return;
      }
      case 'decline': {
        const order = await pickOrder(op.pick, ['placed']);
        if (order) expect((await send('POST', `/api/sales/${order.id}/decline`, who(order.sellerId), { reason: 'Out of season' })).statusCode).toBe(200);
        return;
      }
      case 'accept': {
        const order = await pickOrder(op.pick, ['placed']);
        if (order) expect((await send('POST', `/api/sales/${order.id}/accept`, who(order.sellerId))).statusCode).toBe(200);
        return;
      }
      case 'ship': {
        const order = await pickOrder(op.pick, ['accepted']);
        if (order) expect((await send('POST', `/api/sales/${order.id}/ship`, who(order.sellerId), { carrier: 'UPS', tracking: '1Z1' })).statusCode).toBe(200);
        return;
      }
      case 'move': {
        // As the dashboard's own tests date their orders: the order is placed on another day.
        const order = await pickOrder(op.pick, ['placed', 'accepted', 'shipped', 'delivered', 'cancelled', 'declined']);
        if (order)
          await env()
            .db()
            .update(orders)
            .set({ createdAt: new Date(Date.now() - op.hoursBack * 3_600_000) })
            .where(eq(orders.id, order.id));
        return;
      }
      case 'expire':
        // Far enough ahead that every placed order is three business days old: the sweep cancels them.
        await runOrderSweep(env().db(), env().config, new Date(Date.now() + 10 * 86_400_000));
        return;
    }
  }

  /** The figures the dashboard sums, straight from the orders of a seller in a period. */
  async function fromOrders(sellerId: string, period: DashboardPeriod) {
    const { current } = periodRanges(period, new Date());
    const inPeriod = sql`o.seller_id = ${sellerId} AND o.status NOT IN ('cancelled', 'declined')
      AND o.created_at >= (${current.from}::date::timestamp AT TIME ZONE 'UTC') AND o.created_at < (${current.until}::date::timestamp AT TIME ZONE 'UTC')`;
    const [kpis] = await queryRows<Record<string, unknown>>(
      env().db(),
      sql`SELECT coalesce(sum(o.total_cents), 0)::bigint AS cents, count(*)::int AS orders,
                 coalesce(sum((SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = o.id)), 0)::bigint AS units,
                 count(DISTINCT o.buyer_id)::int AS buyers
          FROM orders o WHERE ${inPeriod}`,
    );
    const top = await queryRows<Record<string, unknown>>(
      env().db(),
      sql`SELECT l.product_id, sum(l.line_total_cents)::bigint AS cents, sum(l.quantity)::bigint AS units
          FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE ${inPeriod} GROUP BY l.product_id
          ORDER BY 2 DESC, 3 DESC, l.product_id LIMIT 10`,
    );
    return {
      kpis: { netSales: toDollars(Number(kpis?.cents)), orders: Number(kpis?.orders), units: Number(kpis?.units), buyers: Number(kpis?.buyers) },
      top: top.map((r) => ({ productId: String(r.product_id), netSales: toDollars(Number(r.cents)), units: Number(r.units) })),
    };
  }

  it('equals the orders after any sequence of purchases, cancels, declines, transitions, expiries and moved days', async () => {
    env().ctx.clock = () => new Date();
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 4, maxLength: 14 }), async (ops) => {
        for (const op of ops) await run(op);
        await expectRollupToMatchOrders(env().db());
        for (const seller of sellers) {
          for (const period of ['7d', '12m'] as const) {
            const response = await send('GET', `/api/seller/dashboard?period=${period}`, seller);
            expect(response.statusCode).toBe(200);
            const dashboard = response.json() as Dashboard;
            const expected = await fromOrders(seller.id, period);
            const { netSales, orders: count, units, buyers: distinct } = dashboard.kpis;
            expect({ netSales, orders: count, units, buyers: distinct }).toEqual(expected.kpis);
            expect(dashboard.topProducts.map(({ productId, netSales, units }) => ({ productId, netSales, units }))).toEqual(expected.top);
            const seriesCents = dashboard.series.reduce((sum, point) => sum + Math.round(point.netSales * 100), 0);
            expect(toDollars(seriesCents)).toBe(expected.kpis.netSales);
          }
        }
      }),
      { numRuns: 5 },
    );
  });
});
