import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestEnv, describeEachDatabase, DATABASE_KINDS } from '../../../test/helpers/test-app.ts';
import { runMigrations } from '../../db/migrate.ts';
import { DEMO_HISTORY_BUYER_COUNT } from '../../db/seed/demo-history.ts';
import { seedDemoData } from '../../db/seed/index.ts';
import { queryRows } from '../../db/rows.ts';

describeEachDatabase('health and start-up', (env) => {
  it('answers /api/health with the database status', async () => {
    const response = await env().request({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', db: 'ok', databases: { primary: 'ok' } });
    expect(response.headers['x-request-id']).toMatch(/[\w-]{8,}/);
  });

  it('applies migrations a second time as a no-op', async () => {
    const count = async () => queryRows<{ n: number }>(env().db(), sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
    const before = await count();
    await runMigrations(env().database);
    expect(await count()).toEqual(before);
  });

  it('seeds the demo catalog idempotently', async () => {
    const first = await seedDemoData(env().ctx);
    const second = await seedDemoData(env().ctx);
    expect(first.products).toBeGreaterThanOrEqual(60);
    expect(second.products).toBe(first.products);
    const [users] = await queryRows<{ n: number }>(env().db(), sql`SELECT count(*)::int AS n FROM "user"`);
    // The demo buyer, seller and operator (docs/decisions/014-business-verification.md), three more
    // sellers (docs/decisions/017-cart-and-checkout.md) and the shops of the demo seller's history
    // (docs/decisions/019-seller-dashboard.md), once each.
    expect(users?.n).toBe(6 + DEMO_HISTORY_BUYER_COUNT);
    // The history: laid once, every status in it, some shops back more than once.
    const [history] = await queryRows<{ orders: number; statuses: number; repeat: number }>(
      env().db(),
      sql`SELECT count(*)::int AS orders, count(DISTINCT status)::int AS statuses,
                 (SELECT count(*)::int FROM (SELECT buyer_id FROM orders GROUP BY buyer_id HAVING count(*) > 1) r) AS repeat FROM orders`,
    );
    expect(history?.orders).toBeGreaterThan(100);
    expect(history).toMatchObject({ statuses: 6, repeat: DEMO_HISTORY_BUYER_COUNT });
    const [categories] = await queryRows<{ n: number }>(env().db(), sql`SELECT count(DISTINCT category)::int AS n FROM products`);
    expect(categories?.n).toBe(6);
    // Four sellers, every product with a SKU, one seller with a minimum order value.
    const [shape] = await queryRows<{ sellers: number; unskued: number; minimums: number }>(
      env().db(),
      sql`SELECT count(DISTINCT owner_id)::int AS sellers, count(*) FILTER (WHERE sku IS NULL)::int AS unskued,
                 (SELECT count(*)::int FROM seller_settings WHERE minimum_order_cents IS NOT NULL) AS minimums FROM products`,
    );
    expect(shape).toEqual({ sellers: 4, unskued: 0, minimums: 1 });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await env().request({ method: 'GET', url: '/api/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});

describe('health when the database is gone', () => {
  it.each(DATABASE_KINDS)('answers 503 with a JSON error on %s', async (kind) => {
    const env = await createTestEnv(kind);
    await env.database.close();
    const response = await env.request({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: { code: 'UNAVAILABLE' } });
    await env.app.close();
  });
});
