import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart, Order } from '@bulkcart/contracts';
import { createListeningTestEnv, RACE_HANG_MS, trackOpenRequests, type TestEnv } from '../../../test/helpers/test-app.ts';
import { bearer, insertBuyers, type QuickBuyer } from '../../../test/helpers/accounts.ts';
import { seedProduct } from '../../../test/helpers/products.ts';
import { expectRollupToMatchOrders } from '../../../test/helpers/dashboard-rollup.ts';

/**
 * The dashboard's rollup under orders placed, cancelled and declined at once, on PostgreSQL only
 * (PGlite runs one transaction at a time): every request succeeds (no two transactions wait for each
 * other's rollup rows in a circle) and the rollup still equals the orders.
 */
describe('dashboard rollup under concurrency [postgres]', { timeout: RACE_HANG_MS }, () => {
  let env: TestEnv;
  let baseUrl: string;

  beforeAll(async () => {
    ({ env, baseUrl } = await createListeningTestEnv());
  });
  afterAll(async () => {
    await env?.close();
  });

  async function call(method: string, path: string, who: QuickBuyer, body?: unknown, key?: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...bearer(who), ...(key ? { 'idempotency-key': key } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: await response.json() };
  }

  it("keeps every figure while one seller's products are bought, checked out with another seller's, cancelled and declined at once", async () => {
    const [acme, globex] = await insertBuyers(env.db(), 2, 'Rollup Race Seller');
    if (!acme || !globex) throw new Error('no sellers');
    const spec = (name: string, priceCents: number) => ({ name, priceCents, mainquantity: 100_000, minquantity: 1, discount: 0, priceBreaks: [] });
    const acmeProducts = await Promise.all([0, 1, 2, 3].map((i) => seedProduct(env, acme, spec(`Acme ${i}`, 100 + i))));
    const globexProduct = await seedProduct(env, globex, spec('Globex', 300));
    const buyers = await insertBuyers(env.db(), 40, 'Rollup Race Buyer');
    const buyNow = (buyer: QuickBuyer, i: number) => call('POST', '/api/order', buyer, { productId: acmeProducts[i % 4]!.id, quantity: 1 + (i % 3) });

    // Half the checkouts list Acme first, half Globex first: the rollup's rows are still locked in one order.
    const checkoutBuyers = buyers.slice(0, 16);
    await Promise.all(
      checkoutBuyers.map(async (buyer, i) => {
        const lines: Array<[string, number]> = [
          [acmeProducts[i % 4]!.id, 2],
          [globexProduct.id, 3],
        ];
        for (const [productId, quantity] of i % 2 === 0 ? lines : lines.reverse()) {
          expect((await call('PUT', `/api/cart/lines/${productId}`, buyer, { quantity })).status).toBe(200);
        }
      }),
    );
    const carts = await Promise.all(checkoutBuyers.map(async (buyer) => (await call('GET', '/api/cart', buyer)).body as Cart));

    let overlap = trackOpenRequests(env);
    const first = await Promise.all([
      ...buyers.map((buyer, i) => buyNow(buyer, i)),
      ...checkoutBuyers.map((buyer, i) => call('POST', '/api/checkout', buyer, { expectedTotal: carts[i]!.total }, randomUUID())),
    ]);
    expect(overlap.stop()).toBeGreaterThan(10);
    expect(first.map((r) => r.status)).toEqual(first.map(() => 201));

    // Today's orders of the same products cancelled and declined while those products are bought again.
    const placed = first.slice(0, buyers.length).map((r) => r.body as Order);
    overlap = trackOpenRequests(env);
    const second = await Promise.all([
      ...placed.map((order, i) =>
        i % 3 === 0
          ? call('DELETE', `/api/order/${order._id}`, buyers[i]!)
          : i % 3 === 1
            ? call('POST', `/api/sales/${order._id}/decline`, acme, { reason: 'Out of stock' })
            : buyNow(buyers[i]!, i + 1),
      ),
    ]);
    expect(overlap.stop()).toBeGreaterThan(10);
    expect(second.map((r) => r.status)).toEqual(placed.map((_, i) => (i % 3 === 2 ? 201 : 200)));

    await expectRollupToMatchOrders(env.db());
  });
});
