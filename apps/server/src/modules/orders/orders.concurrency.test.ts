import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import type { Order } from '@bulkcart/contracts';
import { createTestEnv, RACE_HANG_MS, TEST_ORIGIN, type TestEnv } from '../../../test/helpers/test-app.ts';
import { products } from '../../db/schema/catalog.ts';
import { orders, shipToAddresses } from '../../db/schema/orders.ts';
import { queryRows } from '../../db/rows.ts';
import { buyNowWaitingFor } from './place-order.ts';
import { bearer, insertBuyers, TEST_SHIP_TO } from '../../../test/helpers/accounts.ts';
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

/** Counts the backends waiting for a lock that `holder`'s open transaction holds (whatever their statement's text). */
async function waitingOn(holder: pg.Client): Promise<() => Promise<number>> {
  const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = rows[0]!.pid;
  return async () => {
    const {
      rows: [waiting],
    } = await holder.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid))', [pid]);
    return waiting?.n ?? 0;
  };
}

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
  /** Holds `productId`'s row, sends `first` and waits until it waits at the row, then sends `rest` and waits until they are queued behind it; then lets the row go and answers what each got. */
  async function queuedBehindAHeldRow<T>(productId: string, first: () => Promise<T>, rest: Array<() => Promise<T>>) {
    if (env.config.database.kind !== 'postgres') throw new Error('this test needs PostgreSQL');
    const holder = new pg.Client({ connectionString: env.config.database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM products WHERE id = $1 FOR UPDATE', [productId]);
      const atTheRow = await waitingOn(holder);
      const pending = [first()];
      await vi.waitFor(async () => expect(await atTheRow()).toBe(1), { timeout: HANG_MS, interval: 10 });
      pending.push(...rest.map((send) => send()));
      await vi.waitFor(() => expect(buyNowWaitingFor(productId)).toBe(rest.length), { timeout: HANG_MS, interval: 10 });
      // The rest wait in the process: still one statement at the row.
      expect(await atTheRow()).toBe(1);
      await holder.query('COMMIT');
      return await Promise.all(pending);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  }

  it('sends one Buy Now statement per product to the row at a time: the others wait their turn in the process, then all are placed', async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 1_000, minquantity: 2 });
    const [first, ...rest] = (await insertBuyers(env.db(), 30)).map((buyer) => () => post(bearer(buyer), { productId, quantity: 2 }));
    const answers = await queuedBehindAHeldRow(productId, first!, rest);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(await readStock(env, productId)).toBe(1_000 - 30 * 2);
    expect(buyNowWaitingFor(productId)).toBe(0);
    // The 29 that waited went in batches of at most 16, one statement each: the orders of one statement
    // share its transaction's time. Without batches, 30 statements and 30 times.
    const [statements] = await queryRows<{ n: number }>(
      env.db(),
      sql`SELECT count(DISTINCT ${orders.createdAt})::int AS n FROM ${orders} WHERE ${orders.productId} = ${productId}`,
    );
    expect(statements?.n).toBe(3);
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
      const atTheRow = await waitingOn(seller);
      const pending = post(bearer(buyer!), { productId, quantity: 2 });
      // Waiting on state: the purchase has read the product (at 10.00) and its statement now waits for the row.
      await vi.waitFor(async () => expect(await atTheRow()).toBe(1), { timeout: HANG_MS, interval: 10 });
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

  it("takes a batch's purchases in arrival order while the stock lasts: the ones left out read again and are refused", async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 9, minquantity: 2, casepack: 1 });
    const buyers = await insertBuyers(env.db(), 6);
    const [first, ...rest] = buyers.map((buyer) => () => post(bearer(buyer), { productId, quantity: 2 }));
    const answers = await queuedBehindAHeldRow(productId, first!, rest);
    // The first alone (7 left), then one batch of five: three fit (1 left), two read again and are refused.
    expect(answers[0]?.status).toBe(201);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(4);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(JSON.stringify(r.body)).toContain('1');
    expect(await readStock(env, productId)).toBe(1);
    const placed = await env.db().select({ quantity: orders.quantity }).from(orders).where(eq(orders.productId, productId));
    expect(placed.map((o) => o.quantity)).toEqual([2, 2, 2, 2]);
  });

  it('fails only the purchase that fails its batch: a repeat of a placed order replays it, the others are placed', async () => {
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { mainquantity: 100, minquantity: 1, casepack: 1 });
    const [repeater, firstBuyer, newcomer, ...others] = await insertBuyers(env.db(), 5);
    const key = randomUUID();
    const original = await post(bearer(repeater!), { productId, quantity: 3 }, key);
    expect(original.status).toBe(201);
    // A buyer with no saved address sends one with two purchases of the same batch: both save it, one row results.
    await env.db().delete(shipToAddresses).where(eq(shipToAddresses.userId, newcomer!.id));
    const withAddress = { productId, quantity: 1, shipTo: TEST_SHIP_TO };
    const answers = await queuedBehindAHeldRow(productId, () => post(bearer(firstBuyer!), { productId, quantity: 1 }), [
      () => post(bearer(repeater!), { productId, quantity: 3 }, key),
      () => post(bearer(newcomer!), withAddress),
      () => post(bearer(newcomer!), withAddress),
      ...others.map((buyer) => () => post(bearer(buyer), { productId, quantity: 1 })),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 200, 201, 201, 201, 201]);
    expect((answers[1]?.body as Order)._id).toBe((original.body as Order)._id);
    expect(await readStock(env, productId)).toBe(100 - 3 - 5);
    const saved = await env.db().select().from(shipToAddresses).where(eq(shipToAddresses.userId, newcomer!.id));
    expect(saved).toHaveLength(1);
  });
});
