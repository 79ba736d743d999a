import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Cart, CheckoutAnswer } from '@bulkcart/contracts';
import { createListeningTestEnv, RACE_HANG_MS, trackOpenRequests, type TestEnv } from '../../../test/helpers/test-app.ts';
import { bearer, insertBuyers, signUpUser, type QuickBuyer } from '../../../test/helpers/accounts.ts';
import { readStock, seedProduct } from '../../../test/helpers/products.ts';
import { orders } from '../../db/schema/orders.ts';
import { cartLines } from '../../db/schema/cart.ts';
import { queryRows } from '../../db/rows.ts';

/**
 * Checkouts racing each other only mean something where transactions run side by side: PostgreSQL,
 * over real HTTP against a listening server, so requests overlap as in production.
 */
describe('checkout under concurrency [postgres]', { timeout: RACE_HANG_MS }, () => {
  let env: TestEnv;
  let baseUrl: string;

  beforeAll(async () => {
    ({ env, baseUrl } = await createListeningTestEnv());
  });
  afterAll(async () => {
    await env?.close();
  });

  async function call(method: string, path: string, who: QuickBuyer, body: unknown, key?: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...bearer(who), ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  async function fill(buyer: QuickBuyer, lines: Array<[string, number]>): Promise<Cart> {
    let cart: Cart | undefined;
    for (const [productId, quantity] of lines) {
      const response = await call('PUT', `/api/cart/lines/${productId}`, buyer, { quantity });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      cart = response.body as Cart;
    }
    return cart!;
  }

  it('lets exactly 20 of 50 buyers whose carts share a product with stock 20 check out: no oversell, the other products exact', async () => {
    const [acme, globex] = await Promise.all([signUpUser(env, { name: 'Race Acme' }), signUpUser(env, { name: 'Race Globex' })]);
    const scarce = await seedProduct(env, acme, { name: 'Scarce', mainquantity: 20, minquantity: 1, priceCents: 1000, discount: 0 });
    const plenty = await seedProduct(env, globex, { name: 'Plenty', mainquantity: 10_000, minquantity: 5, priceCents: 300, discount: 0 });
    const extra = await seedProduct(env, acme, { name: 'Extra', mainquantity: 10_000, minquantity: 2, priceCents: 250, discount: 0 });
    const buyers = await insertBuyers(env.db(), 50, 'Race Buyer');
    // Half fill their carts in one order and half in the other: the checkout must lock in one order anyway.
    const carts = await Promise.all(
      buyers.map((b, i) =>
        fill(
          b,
          i % 2 === 0
            ? [
                [scarce.id, 1],
                [plenty.id, 5],
                [extra.id, 2],
              ]
            : [
                [extra.id, 2],
                [plenty.id, 5],
                [scarce.id, 1],
              ],
        ),
      ),
    );
    expect(carts.every((c) => c.total === 30)).toBe(true);

    const overlap = trackOpenRequests(env);
    const results = await Promise.all(buyers.map((b) => call('POST', '/api/checkout', b, { expectedTotal: 30 }, randomUUID())));
    expect(overlap.stop()).toBeGreaterThan(10);

    const placed = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(placed).toHaveLength(20);
    expect(refused).toHaveLength(30);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ error: { code: 'OUT_OF_STOCK', fieldErrors: { [`lines.${scarce.id}`]: [expect.any(String)] } } });
    }
    for (const r of placed) expect((r.body as CheckoutAnswer).orders).toHaveLength(2);

    expect(await readStock(env, scarce.id)).toBe(0);
    expect(await readStock(env, plenty.id)).toBe(10_000 - 20 * 5);
    expect(await readStock(env, extra.id)).toBe(10_000 - 20 * 2);
    const [sold] = await queryRows<{ orders: number; scarce: number; plenty: number }>(
      env.db(),
      sql`SELECT count(DISTINCT o.id)::int AS orders,
                 coalesce(sum(l.quantity) FILTER (WHERE l.product_id = ${scarce.id}), 0)::int AS scarce,
                 coalesce(sum(l.quantity) FILTER (WHERE l.product_id = ${plenty.id}), 0)::int AS plenty
          FROM orders o JOIN order_lines l ON l.order_id = o.id
          WHERE o.buyer_id IN (${sql.join(
            buyers.map((b) => sql`${b.id}`),
            sql`, `,
          )})`,
    );
    expect(sold).toEqual({ orders: 40, scarce: 20, plenty: 100 });
    // The refused buyers keep their whole cart; the others' carts are empty.
    const left = await env
      .db()
      .select({ buyerId: cartLines.buyerId })
      .from(cartLines)
      .where(
        inArray(
          cartLines.buyerId,
          buyers.map((b) => b.id),
        ),
      );
    expect(left).toHaveLength(30 * 3);
  });

  it('numbers every order once while 20 two-seller checkouts race 20 Buy Now orders: the process reuses numbers each reserved', async () => {
    const [acme, globex] = await Promise.all([signUpUser(env, { name: 'Number Acme' }), signUpUser(env, { name: 'Number Globex' })]);
    const bolts = await seedProduct(env, acme, { mainquantity: 10_000, minquantity: 1, priceCents: 100, discount: 0 });
    const nuts = await seedProduct(env, globex, { mainquantity: 10_000, minquantity: 1, priceCents: 100, discount: 0 });
    const buyers = await insertBuyers(env.db(), 40, 'Number Buyer');
    const checkingOut = buyers.slice(0, 20);
    const buyingNow = buyers.slice(20);
    // Twice: the second round's orders take numbers the first round's statements reserved for later.
    for (let round = 0; round < 2; round++) {
      await Promise.all(
        checkingOut.map((b) =>
          fill(b, [
            [bolts.id, 1],
            [nuts.id, 1],
          ]),
        ),
      );
      const results = await Promise.all([
        ...checkingOut.map((b) => call('POST', '/api/checkout', b, { expectedTotal: 2 }, randomUUID())),
        ...buyingNow.map((b) => call('POST', '/api/order', b, { productId: bolts.id, quantity: 1 }, randomUUID())),
      ]);
      expect(results.map((r) => r.status)).toEqual(Array.from({ length: 40 }, () => 201));
      for (const r of results.slice(0, 20)) {
        const numbers = (r.body as CheckoutAnswer).orders.map((o) => Number(o.number.slice(3)));
        expect(numbers).toHaveLength(2);
        expect(numbers[0]).toBeLessThan(numbers[1]!);
      }
    }
    const written = await env
      .db()
      .select({ number: orders.number })
      .from(orders)
      .where(
        inArray(
          orders.buyerId,
          buyers.map((b) => b.id),
        ),
      );
    expect(written).toHaveLength(2 * (20 * 2 + 20));
    expect(new Set(written.map((o) => o.number)).size).toBe(written.length);
    expect(await readStock(env, bolts.id)).toBe(10_000 - 2 * 40);
    expect(await readStock(env, nuts.id)).toBe(10_000 - 2 * 20);
  });

  it('places one set of orders from 10 simultaneous checkouts with one key; the twins answer the same orders', async () => {
    const seller = await signUpUser(env, { name: 'Twin Seller' });
    const product = await seedProduct(env, seller, { mainquantity: 1000, minquantity: 10, priceCents: 100, discount: 0 });
    const [buyer] = await insertBuyers(env.db(), 1, 'Twin Buyer');
    await fill(buyer!, [[product.id, 10]]);
    const key = randomUUID();

    const results = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/api/checkout', buyer!, { expectedTotal: 10, poNumber: 'TWIN-1' }, key)));

    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
    const answers = new Set(results.map((r) => JSON.stringify(r.body)));
    expect(answers.size).toBe(1);
    const rows = await env.db().select({ id: orders.id }).from(orders).where(eq(orders.buyerId, buyer!.id));
    expect(rows).toHaveLength(1);
    expect(await readStock(env, product.id)).toBe(990);
  });

  it('serialises a checkout with an edit of the same cart from another tab: the edit lands before or after, never inside', async () => {
    const seller = await signUpUser(env, { name: 'Tab Seller' });
    const a = await seedProduct(env, seller, { mainquantity: 1000, minquantity: 1, priceCents: 100, discount: 0 });
    const b = await seedProduct(env, seller, { mainquantity: 1000, minquantity: 1, priceCents: 100, discount: 0 });
    const [buyer] = await insertBuyers(env.db(), 1, 'Two Tabs Buyer');
    await fill(buyer!, [[a.id, 3]]);

    const [done, edit] = await Promise.all([
      call('POST', '/api/checkout', buyer!, { expectedTotal: 3 }, randomUUID()),
      call('PUT', `/api/cart/lines/${b.id}`, buyer!, { quantity: 4 }),
    ]);
    expect(edit.status).toBe(200);
    const cart = (await call('GET', '/api/cart', buyer!, undefined)).body as Cart;
    if (done.status === 201) {
      // The checkout went first: it placed A alone and the edit's B waits in the cart.
      expect((done.body as CheckoutAnswer).orders[0]?.total).toBe(3);
      expect(cart.lines.map((l) => [l.productId, l.quantity])).toEqual([[b.id, 4]]);
      expect(await readStock(env, b.id)).toBe(1000);
    } else {
      // The edit went first: the total the buyer confirmed is no longer the cart's, and nothing was placed.
      expect(done.status).toBe(409);
      expect(done.body).toMatchObject({ error: { title: 'Prices changed' }, cart: { total: 7 } });
      expect(await readStock(env, a.id)).toBe(1000);
    }
  });

  it('holds the 200-line bound when two tabs add the last line at once: one gets it, the other is told the cart is full', async () => {
    const seller = await signUpUser(env, { name: 'Bound Seller' });
    const [buyer] = await insertBuyers(env.db(), 1, 'Two Tabs Bound Buyer');
    const many = await Promise.all(Array.from({ length: 201 }, () => seedProduct(env, seller, { minquantity: 1 })));
    const first = await call('POST', '/api/cart/lines', buyer!, { lines: many.slice(0, 199).map((p) => ({ productId: p.id, quantity: 1 })) });
    expect(first.status).toBe(200);

    const [a, b] = await Promise.all([
      call('PUT', `/api/cart/lines/${many[199]!.id}`, buyer!, { quantity: 1 }),
      call('PUT', `/api/cart/lines/${many[200]!.id}`, buyer!, { quantity: 1 }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    expect([a, b].find((r) => r.status === 422)?.body).toMatchObject({ error: { message: 'Your cart is full: it holds at most 200 lines.' } });
    const [row] = await queryRows<{ n: number }>(env.db(), sql`SELECT count(*)::int AS n FROM cart_lines WHERE buyer_id = ${buyer!.id}`);
    expect(row?.n).toBe(200);
  });
});
