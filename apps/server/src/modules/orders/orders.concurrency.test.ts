import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import type { Order } from '@bulkcart/contracts';
import { createTestEnv, RACE_HANG_MS, TEST_ORIGIN, type TestEnv } from '../../../test/helpers/test-app.ts';
import { products } from '../../db/schema/catalog.ts';
import { orders } from '../../db/schema/orders.ts';
import { queryRows } from '../../db/rows.ts';
import { buyNowWaitingFor } from './place-order.ts';
import { bearer, insertBuyers } from '../../../test/helpers/accounts.ts';
import { markVerified } from '../../../test/helpers/business.ts';
import { seedProduct, readStock, OTHER_SELLER, validProductBody } from '../../../test/helpers/products.ts';

/**
 * Races only exist where transactions run side by side: PGlite has one connection, so these run on
 * PostgreSQL alone, over real HTTP against a listening server so requests overlap as in production
 * (the pool holds 20 connections; hundreds of requests queue for them and contend on one row).
 * How long that queue takes depends on the machine, so nothing here is timed: a request waits for a
 * connection as long as it must (DB_POOL_WAIT_MS), and the test's limit only catches a hang.
 */
const HANG_MS = RACE_HANG_MS;

describe('purchase and cancel under concurrency [postgres]', { timeout: HANG_MS }, () => {
  let env: TestEnv;
  let baseUrl: string;

  beforeAll(async () => {
    env = await createTestEnv('postgres', { DB_POOL_WAIT_MS: String(HANG_MS) });
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(env.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await env?.close();
  });

  async function post(token: { authorization: string }, body: unknown, key?: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${baseUrl}/api/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...token, ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  async function del(token: { authorization: string }, id: string): Promise<number> {
    const response = await fetch(`${baseUrl}/api/order/${id}`, { method: 'DELETE', headers: token });
    await response.arrayBuffer();
    return response.status;
  }

  it('lets exactly as many of 300 buyers succeed as the stock covers, never overselling', async () => {
    const moq = 7;
    const initial = 100 * moq + 5;
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: initial, minquantity: moq });
    const buyers = await insertBuyers(env.db(), 300);

    // Evidence that the requests really overlapped: how many the server held open at once.
    let open = 0;
    let peak = 0;
    const track = (_req: IncomingMessage, res: ServerResponse) => {
      peak = Math.max(peak, ++open);
      res.once('close', () => open--);
    };
    env.app.server.on('request', track);
    const results = await Promise.all(buyers.map((b) => post(bearer(b), { productId, quantity: moq })));
    env.app.server.off('request', track);
    // Many at once, each racing the others for the one row (a purchase holds a connection for one
    // statement at a time, so how many wait for the pool's 20 depends on the machine, not on the rule).
    expect(peak).toBeGreaterThan(10);

    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(100);
    expect(refused).toHaveLength(200);
    for (const r of refused) {
      expect(r.body).toMatchObject({
        error: { code: 'OUT_OF_STOCK', title: 'sorry supply is short', message: expect.stringMatching(/^we have only \d units\.$/) },
      });
    }
    const finalStock = await readStock(env, productId);
    expect(finalStock).toBe(5);
    const [sold] = await queryRows<{ n: number; units: number }>(
      env.db(),
      sql`SELECT count(*)::int AS n, coalesce(sum(quantity), 0)::int AS units FROM orders WHERE product_id = ${productId}`,
    );
    expect(sold).toEqual({ n: 100, units: 700 });
    expect(sold!.units + finalStock!).toBe(initial);
    // Each successful buyer got exactly one order of their own.
    expect(new Set(created.map((r) => (r.body as Order)._id)).size).toBe(100);
  });

  it('makes one order and one decrement from 20 simultaneous requests with one Idempotency-Key', async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 1000, minquantity: 10 });
    const [buyer] = await insertBuyers(env.db(), 1);
    const key = randomUUID();

    const results = await Promise.all(Array.from({ length: 20 }, () => post(bearer(buyer!), { productId, quantity: 10 }, key)));

    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(19);
    expect(new Set(results.map((r) => (r.body as Order)._id)).size).toBe(1);
    const rows = await env.db().select({ id: orders.id }).from(orders).where(eq(orders.buyerId, buyer!.id));
    expect(rows).toHaveLength(1);
    expect(await readStock(env, productId)).toBe(990);
  });

  it('makes one order from 10 simultaneous requests with one key and two bodies: its twins replay it, the others get 422', async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 1000, minquantity: 10 });
    const [buyer] = await insertBuyers(env.db(), 1);
    const key = randomUUID();
    const quantities = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? 10 : 20));

    const results = await Promise.all(quantities.map(async (quantity) => ({ quantity, ...(await post(bearer(buyer!), { productId, quantity }, key)) })));

    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const winner = created[0]!;
    const order = winner.body as Order;
    expect(order.quantity).toBe(winner.quantity);
    const twins = results.filter((r) => r !== winner && r.quantity === winner.quantity);
    const others = results.filter((r) => r.quantity !== winner.quantity);
    expect(twins).toHaveLength(4);
    expect(others).toHaveLength(5);
    for (const twin of twins) {
      expect(twin.status).toBe(200);
      expect(twin.body).toEqual(order);
    }
    for (const other of others) {
      expect(other.status).toBe(422);
      expect(other.body).toEqual({
        error: { code: 'VALIDATION', title: 'Idempotency-Key already used', message: 'This Idempotency-Key was already used for a different order.' },
      });
    }
    const rows = await env.db().select({ id: orders.id, quantity: orders.quantity }).from(orders).where(eq(orders.buyerId, buyer!.id));
    expect(rows).toEqual([{ id: order._id, quantity: winner.quantity }]);
    expect(await readStock(env, productId)).toBe(1000 - winner.quantity);
  });

  it('replays the first order to simultaneous repeats even when it took the last of the stock', async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 10, minquantity: 10 });
    const [buyer] = await insertBuyers(env.db(), 1);
    const key = randomUUID();

    const results = await Promise.all(Array.from({ length: 20 }, () => post(bearer(buyer!), { productId, quantity: 10 }, key)));

    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array<number>(19).fill(200)].sort());
    expect(new Set(results.map((r) => (r.body as Order)._id)).size).toBe(1);
    expect(await readStock(env, productId)).toBe(0);
  });

  it('restores the stock once when one order is cancelled twice at the same moment', async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 500, minquantity: 25 });
    const [buyer] = await insertBuyers(env.db(), 1);
    const order = (await post(bearer(buyer!), { productId, quantity: 40 })).body as Order;
    expect(await readStock(env, productId)).toBe(460);

    const statuses = await Promise.all([del(bearer(buyer!), order._id), del(bearer(buyer!), order._id)]);

    expect(statuses.sort()).toEqual([200, 404]);
    expect(await readStock(env, productId)).toBe(500);
  });

  it('restores each of many orders exactly once when they are cancelled all at once, twice over', async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 1000, minquantity: 5 });
    const buyers = await insertBuyers(env.db(), 40);
    const placed = await Promise.all(buyers.map(async (b) => ({ buyer: b, order: (await post(bearer(b), { productId, quantity: 5 })).body as Order })));
    expect(await readStock(env, productId)).toBe(800);

    const statuses = await Promise.all(placed.flatMap(({ buyer, order }) => [del(bearer(buyer), order._id), del(bearer(buyer), order._id)]));

    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(statuses.filter((s) => s === 404)).toHaveLength(40);
    expect(await readStock(env, productId)).toBe(1000);
  });

  it('prices an order placed while the seller edits the breaks by the old ladder or the new, never a mix, and stores which', async () => {
    const [seller] = await insertBuyers(env.db(), 1, 'Ladder Seller');
    const buyers = await insertBuyers(env.db(), 80);
    // Volume breaks go to verified businesses (docs/decisions/014-business-verification.md).
    await Promise.all(buyers.map((b) => markVerified(env, b.id)));
    // Ladder A: $10, $9.00 from 100. Ladder B: $12, $7.50 from 50, 10% off. At 100 units A pays 900
    // cents (break 100, list 1000) and B pays 675 (break 50, list 1200); any other tuple is a mix.
    const ladderA = { price: 10, discount: 0, tiers: [{ minquantity: 100, price: 9 }] };
    const ladderB = { price: 12, discount: 10, tiers: [{ minquantity: 50, price: 7.5 }] };
    const body = (ladder: typeof ladderA) => validProductBody({ minquantity: 10, mainquantity: 1_000_000, ...ladder });
    const [product] = await env
      .db()
      .insert(products)
      .values({
        name: 'Racing ladder',
        image: '/images/products/test.webp',
        brandname: 'TestBrand',
        category: 'Office Supplies & Stationery',
        priceCents: 1000,
        discount: 0,
        priceBreaks: [{ minquantity: 100, priceCents: 900 }],
        mainquantity: 1_000_000,
        minquantity: 10,
        ownerId: seller!.id,
        ownerEmail: seller!.email,
      })
      .returning({ id: products.id });
    const productId = product!.id;

    const edit = (ladder: typeof ladderA) =>
      fetch(`${baseUrl}/api/updateproduct/${productId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...bearer(seller!) },
        body: JSON.stringify(body(ladder)),
      }).then(async (r) => ({ status: r.status, body: await r.text() }));
    const requests: Array<Promise<unknown>> = [];
    buyers.forEach((b, i) => {
      requests.push(post(bearer(b), { productId, quantity: 100 }));
      if (i % 4 === 0) requests.push(edit(i % 8 === 0 ? ladderB : ladderA));
    });
    const results = (await Promise.all(requests)) as Array<{ status: number; body: unknown }>;
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);

    const rows = await env
      .db()
      .select({ unit: orders.unitPriceCents, total: orders.lineTotalCents, list: orders.listUnitPriceCents, tier: orders.tierMinquantity })
      .from(orders)
      .where(eq(orders.productId, productId));
    expect(rows).toHaveLength(80);
    const a = { unit: 900, total: 90_000, list: 1000, tier: 100 };
    const b = { unit: 675, total: 67_500, list: 1200, tier: 50 };
    for (const row of rows) expect([a, b]).toContainEqual(row);
    // The answers say what the rows say: all 80 of them.
    const answers = results.filter((x) => (x.body as Order).quantity === 100);
    expect(answers).toHaveLength(80);
    for (const r of answers) {
      const order = r.body as Order;
      expect([
        { unitPrice: 9, total: 900, listUnitPrice: 10, tierMinquantity: 100 },
        { unitPrice: 6.75, total: 675, listUnitPrice: 12, tierMinquantity: 50 },
      ]).toContainEqual({ unitPrice: order.unitPrice, total: order.total, listUnitPrice: order.listUnitPrice, tierMinquantity: order.tierMinquantity });
    }
  });
  it('sends one Buy Now statement per product to the row at a time: the others wait their turn in the process, then all are placed', async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 1_000, minquantity: 2 });
    const buyers = await insertBuyers(env.db(), 30);
    if (env.config.database.kind !== 'postgres') throw new Error('this test needs PostgreSQL');
    const holder = new pg.Client({ connectionString: env.config.database.url });
    await holder.connect();
    const atTheRow = async () =>
      (
        await queryRows<{ n: number }>(
          env.db(),
          sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE "products"%'`,
        )
      )[0]?.n ?? 0;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM products WHERE id = $1 FOR UPDATE', [productId]);
      const pending = buyers.map((buyer) => post(bearer(buyer), { productId, quantity: 2 }));
      // Waiting on state: every purchase has read and decided, one statement waits on the row, 29 in line.
      await vi.waitFor(() => expect(buyNowWaitingFor(productId)).toBe(29), { timeout: HANG_MS, interval: 20 });
      await vi.waitFor(async () => expect(await atTheRow()).toBe(1), { timeout: HANG_MS, interval: 20 });
      await holder.query('COMMIT');

      const answers = await Promise.all(pending);
      expect(answers.map((a) => a.status)).toEqual(buyers.map(() => 201));
      expect(await readStock(env, productId)).toBe(1_000 - 30 * 2);
      expect(buyNowWaitingFor(productId)).toBe(0);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  });

  it('prices an order at the row it takes: a price changed while the purchase waits for that row makes it read again', async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 50, minquantity: 1, priceCents: 1000, discount: 0 });
    const [buyer] = await insertBuyers(env.db(), 1);
    if (env.config.database.kind !== 'postgres') throw new Error('this test needs PostgreSQL');
    const seller = new pg.Client({ connectionString: env.config.database.url });
    await seller.connect();
    try {
      // The seller's edit holds the row, as a concurrent transaction would.
      await seller.query('BEGIN');
      await seller.query('SELECT 1 FROM products WHERE id = $1 FOR UPDATE', [productId]);
      const pending = post(bearer(buyer!), { productId, quantity: 2 });
      // Waiting on state: the purchase has read the product (at 10.00) and its decrement now waits for the row.
      for (;;) {
        const [waiting] = await queryRows<{ n: number }>(
          env.db(),
          sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE "products"%'`,
        );
        if ((waiting?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await seller.query('UPDATE products SET price_cents = 1500 WHERE id = $1', [productId]);
      await seller.query('COMMIT');
      const answer = await pending;
      expect(answer.status).toBe(201);
      expect((answer.body as Order).unitPrice).toBe(15);
      const [row] = await env.db().select({ unit: orders.unitPriceCents }).from(orders).where(eq(orders.productId, productId));
      expect(row?.unit).toBe(1500);
      expect(await readStock(env, productId)).toBe(48);
    } finally {
      await seller.query('ROLLBACK').catch(() => {});
      await seller.end();
    }
  });
});
