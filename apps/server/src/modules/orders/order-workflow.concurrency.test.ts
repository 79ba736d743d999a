import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Order } from '@bulkcart/contracts';
import { createTestEnv, type TestEnv } from '../../../test/helpers/test-app.ts';
import { buildApp } from '../../app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import { bearer, insertBuyers, type QuickBuyer } from '../../../test/helpers/accounts.ts';
import { readStock, seedProduct } from '../../../test/helpers/products.ts';
import { runOrderSweep } from './sales.service.ts';

/**
 * Transitions racing each other, on PostgreSQL only (PGlite runs one transaction at a time), over
 * real HTTP so the requests overlap on the pool as in production.
 */
describe('order workflow under concurrency [postgres]', () => {
  let env: TestEnv;
  let baseUrl: string;
  let seller: QuickBuyer;
  let buyers: QuickBuyer[];

  beforeAll(async () => {
    env = await createTestEnv('postgres');
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(env.app.server.address() as AddressInfo).port}`;
    const [first] = await insertBuyers(env.db(), 1, 'Race Seller');
    if (!first) throw new Error('no seller');
    seller = first;
    buyers = await insertBuyers(env.db(), 20, 'Race Buyer');
  });
  afterAll(async () => {
    await env?.close();
  });

  async function send(method: string, path: string, who: QuickBuyer, body?: unknown): Promise<{ status: number; body: { error?: { message: string } } }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...bearer(who), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
  }

  async function placeOrders(productId: string, quantity: number): Promise<Array<{ buyer: QuickBuyer; order: Order }>> {
    return Promise.all(
      buyers.map(async (buyer) => {
        const response = await send('POST', '/api/order', buyer, { productId, quantity });
        expect(response.status).toBe(201);
        return { buyer, order: response.body as unknown as Order };
      }),
    );
  }

  async function countEvents(orderIds: string[], to: string): Promise<Map<string, number>> {
    const rows = await queryRows<{ order_id: string; n: number }>(
      env.db(),
      sql`SELECT order_id, count(*)::int AS n FROM order_events WHERE to_status = ${to} AND order_id IN (${sql.join(
        orderIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) GROUP BY order_id`,
    );
    return new Map(rows.map((r) => [r.order_id, r.n]));
  }

  it('accept racing cancel: exactly one wins each order, the loser gets a 409 saying what happened, stock restored at most once', async () => {
    const initial = 10_000;
    const { id: productId } = await seedProduct(env, { id: seller.id, email: seller.email }, { mainquantity: initial, minquantity: 1, priceCents: 100 });
    const placed = await placeOrders(productId, 7);
    const results = await Promise.all(
      placed.map(async ({ buyer, order }) => {
        const [accept, cancel] = await Promise.all([
          send('POST', `/api/sales/${order._id}/accept`, seller, {}),
          send('DELETE', `/api/order/${order._id}`, buyer),
        ]);
        return { order, accept, cancel };
      }),
    );
    let acceptedUnits = 0;
    for (const { accept, cancel } of results) {
      expect([accept.status, cancel.status].sort()).toEqual([200, 409]);
      if (accept.status === 200) {
        acceptedUnits += 7;
        expect(cancel.body.error?.message).toBe('The seller has already accepted this order');
      } else {
        expect(accept.body.error?.message).toBe('This order was cancelled.');
      }
    }
    expect(await readStock(env, productId)).toBe(initial - acceptedUnits);
    const ids = results.map((r) => r.order._id);
    const statuses = await queryRows<{ status: string; n: number }>(
      env.db(),
      sql`SELECT status, count(*)::int AS n FROM orders WHERE id IN (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) GROUP BY status`,
    );
    // The rows say what the answers said: as many accepted as the accepts that won, the rest cancelled.
    const acceptedOrders = acceptedUnits / 7;
    expect(Object.fromEntries(statuses.map((s) => [s.status, s.n]))).toEqual({
      ...(acceptedOrders > 0 ? { accepted: acceptedOrders } : {}),
      ...(acceptedOrders < ids.length ? { cancelled: ids.length - acceptedOrders } : {}),
    });
    const accepted = await countEvents(ids, 'accepted');
    const cancelled = await countEvents(ids, 'cancelled');
    for (const id of ids) expect((accepted.get(id) ?? 0) + (cancelled.get(id) ?? 0)).toBe(1);
  });

  it('bulk accept racing cancels: each order is accepted or cancelled, never both; the answer says which, and two overlapping bulk accepts never deadlock', async () => {
    const initial = 10_000;
    const { id: productId } = await seedProduct(env, { id: seller.id, email: seller.email }, { mainquantity: initial, minquantity: 1, priceCents: 100 });
    const placed = await placeOrders(productId, 3);
    const ids = placed.map((p) => p.order._id);
    // Two desks (two tabs) accept overlapping halves in opposite orders while every buyer cancels.
    const [first, second, ...cancels] = await Promise.all([
      send('POST', '/api/sales/accept', seller, { ids: ids.slice(0, 14) }),
      send('POST', '/api/sales/accept', seller, { ids: ids.slice(6).reverse() }),
      ...placed.map(({ buyer, order }) => send('DELETE', `/api/order/${order._id}`, buyer)),
    ]);
    expect(first!.status).toBe(200);
    expect(second!.status).toBe(200);
    type Answer = { accepted: Array<{ _id: string }>; refused: Array<{ _id: string; message: string }> };
    const acceptedIds = [...(first!.body as unknown as Answer).accepted, ...(second!.body as unknown as Answer).accepted].map((o) => o._id);
    // Each order accepted by one desk at most.
    expect(new Set(acceptedIds).size).toBe(acceptedIds.length);
    placed.forEach(({ order }, i) => {
      const isAccepted = acceptedIds.includes(order._id);
      expect(cancels[i]!.status, order._id).toBe(isAccepted ? 409 : 200);
    });
    expect(await readStock(env, productId)).toBe(initial - 3 * acceptedIds.length);
    const accepted = await countEvents(ids, 'accepted');
    const cancelled = await countEvents(ids, 'cancelled');
    for (const id of ids) expect((accepted.get(id) ?? 0) + (cancelled.get(id) ?? 0)).toBe(1);
  });

  it('decline racing cancel: exactly one wins, and every order gives its stock back exactly once', async () => {
    const initial = 5_000;
    const { id: productId } = await seedProduct(env, { id: seller.id, email: seller.email }, { mainquantity: initial, minquantity: 1, priceCents: 100 });
    const placed = await placeOrders(productId, 11);
    expect(await readStock(env, productId)).toBe(initial - 11 * buyers.length);
    const results = await Promise.all(
      placed.map(async ({ buyer, order }) => {
        const [decline, cancel] = await Promise.all([
          send('POST', `/api/sales/${order._id}/decline`, seller, { reason: 'Racing' }),
          send('DELETE', `/api/order/${order._id}`, buyer),
        ]);
        return { order, decline, cancel };
      }),
    );
    for (const { decline, cancel } of results) expect([decline.status, cancel.status].sort()).toEqual([200, 409]);
    // Both outcomes restock; had any order restocked twice, the stock would be above the start.
    expect(await readStock(env, productId)).toBe(initial);
    const ids = results.map((r) => r.order._id);
    const declined = await countEvents(ids, 'declined');
    const cancelled = await countEvents(ids, 'cancelled');
    for (const id of ids) expect((declined.get(id) ?? 0) + (cancelled.get(id) ?? 0)).toBe(1);
  });

  it('the sweep run by two server processes at once cancels each overdue order once, restocks once, tells each side once', async () => {
    const initial = 3_000;
    const { id: productId } = await seedProduct(env, { id: seller.id, email: seller.email }, { mainquantity: initial, minquantity: 1, priceCents: 100 });
    const placed = await placeOrders(productId, 5);
    const ids = placed.map((p) => p.order._id);
    // Placed ten days ago: overdue whatever the weekday.
    await env.db().execute(
      sql`UPDATE orders SET created_at = now() - interval '10 days' WHERE id IN (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );

    // A second app on the same PostgreSQL database: another server process as far as the data is concerned.
    if (env.config.database.kind !== 'postgres') throw new Error('needs PostgreSQL');
    const second: Database = await openDatabase(env.config.database);
    const other = await buildApp({ config: env.config, database: second, logger: false });
    try {
      const now = new Date();
      const runs = await Promise.all([
        runOrderSweep(env.db(), env.config, now),
        runOrderSweep(other.ctx.db, other.ctx.config, now),
        runOrderSweep(env.db(), env.config, now),
        runOrderSweep(other.ctx.db, other.ctx.config, now),
      ]);
      expect(runs.reduce((sum, r) => sum + r.cancelled, 0)).toBe(ids.length);
    } finally {
      await other.app.close();
      await second.close();
    }
    expect(await readStock(env, productId)).toBe(initial);
    const cancelled = await countEvents(ids, 'cancelled');
    for (const id of ids) expect(cancelled.get(id)).toBe(1);
    const told = await queryRows<{ n: number }>(
      env.db(),
      sql`SELECT count(*)::int AS n FROM notifications WHERE kind = 'cancelled' AND order_id IN (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    // One for the buyer and one for the seller of each order.
    expect(told[0]?.n).toBe(ids.length * 2);
  });
});
