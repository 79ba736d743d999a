import { Writable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import type { Product } from '@bulkcart/contracts';
import { loadConfig } from '../src/config.ts';
import { READ_AFTER_COOKIE } from '../src/plugins/read-routing.ts';
import { createPostgresDatabase, createTestEnv, type TestEnv } from './helpers/test-app.ts';
import { asUser, signUpUser } from './helpers/accounts.ts';
import { validProductBody } from './helpers/products.ts';

/**
 * Lag-tolerant reads on DATABASE_READ_URL, the rest on the primary (plugins/read-routing.ts). The
 * "replica" here is a second copy of the migrated database that receives no writes, so a read that
 * went to it is visible: it does not know what was written since. Real streaming replication, its lag
 * bound and a replica stopped under load are in test/resilience/local-cluster.test.ts.
 */
describe('read replica routing [postgres]', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function replicaEnv(): Promise<{ env: TestEnv; log: string[]; replicaName: string }> {
    const primary = await createPostgresDatabase({ migrated: true });
    const replica = await createPostgresDatabase({ migrated: true });
    cleanups.push(primary.drop, replica.drop);
    const log: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log.push(chunk.toString());
        done();
      },
    });
    const env = await createTestEnv('postgres', { DATABASE_URL: primary.url, DATABASE_READ_URL: replica.url }, { level: 'warn', stream });
    cleanups.push(() => env.close());
    return { env, log, replicaName: new URL(replica.url).pathname.slice(1) };
  }

  const readAfter = (answer: { headers: Record<string, unknown> }): string => {
    const cookies = ([] as string[]).concat((answer.headers['set-cookie'] as string[] | string | undefined) ?? []);
    const mark = cookies.find((cookie) => cookie.startsWith(`${READ_AFTER_COOKIE}=`));
    if (!mark) throw new Error(`no ${READ_AFTER_COOKIE} cookie in ${JSON.stringify(cookies)}`);
    expect(mark).toMatch(/; Max-Age=60; HttpOnly; SameSite=Lax/);
    return mark.split(';')[0]!;
  };

  it('reads the catalog, search and a seller’s dashboard from the replica, and a writer’s own reads from the primary', async () => {
    const { env } = await replicaEnv();
    const seller = await signUpUser(env, { name: 'Replica Seller' });
    const buyer = await signUpUser(env, { name: 'Replica Buyer' });
    const added = await env.request({
      method: 'POST',
      url: '/api/addproduct',
      headers: asUser(seller),
      payload: validProductBody({ name: 'Zebrawood Crate' }),
    });
    expect(added.statusCode).toBe(201);
    const product = added.json() as Product;
    const mark = readAfter(added);
    const sellerReads = { cookie: `${asUser(seller).cookie}; ${mark}` };

    // The writer reads the primary: the product is there at once, on its page, in lists and in search.
    expect((await env.request({ method: 'GET', url: `/api/product/${product._id}`, headers: sellerReads })).statusCode).toBe(200);
    expect(((await env.request({ method: 'GET', url: '/api/allproduct', headers: sellerReads })).json() as Product[]).map((p) => p._id)).toContain(product._id);
    expect((await env.request({ method: 'GET', url: '/api/search?q=zebrawood', headers: sellerReads })).json().total).toBe(1);
    expect((await env.request({ method: 'GET', url: `/api/products/${encodeURIComponent(seller.email)}`, headers: sellerReads })).json()).toHaveLength(1);

    // Everyone else reads the replica, which has not seen the write.
    expect((await env.request({ method: 'GET', url: `/api/product/${product._id}`, headers: asUser(buyer) })).statusCode).toBe(404);
    expect((await env.request({ method: 'GET', url: '/api/allproduct' })).json()).toEqual([]);
    expect((await env.request({ method: 'GET', url: '/api/search?q=zebrawood' })).json().total).toBe(0);
    // So does the seller without the mark (another browser), and with a mark not signed by the server.
    expect((await env.request({ method: 'GET', url: `/api/products/${encodeURIComponent(seller.email)}`, headers: asUser(seller) })).json()).toEqual([]);
    const forged = `${READ_AFTER_COOKIE}=FF/FFFFFFFF.${'A'.repeat(43)}`;
    expect((await env.request({ method: 'GET', url: `/api/product/${product._id}`, headers: { cookie: forged } })).statusCode).toBe(404);

    // What decides stays on the primary whatever the reader: the buyer orders the product the replica lacks.
    const order = await env.request({
      method: 'POST',
      url: '/api/order',
      headers: asUser(buyer),
      payload: { productId: product._id, quantity: product.minquantity },
    });
    expect(order.statusCode, order.body).toBe(201);
    // The dashboard tolerates lag: without a mark the seller's figures come from the replica (no order yet).
    const dashboard = await env.request({ method: 'GET', url: '/api/seller/dashboard?period=7d', headers: asUser(seller) });
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    expect(dashboard.json().queue.toAccept).toBe(0);
    const ownDashboard = await env.request({ method: 'GET', url: '/api/seller/dashboard?period=7d', headers: sellerReads });
    expect(ownDashboard.json().queue.toAccept).toBe(1);

    expect((await env.request({ method: 'GET', url: '/api/health' })).json()).toEqual({
      status: 'ok',
      db: 'ok',
      // This replica is no streaming standby: its lag cannot be measured.
      databases: { primary: 'ok', replica: { state: 'ok', lagMs: null } },
    });
  });

  it('reads from the primary, with a log line and never an error, when the replica goes away', async () => {
    const { env, log, replicaName } = await replicaEnv();
    const seller = await signUpUser(env, { name: 'Outage Seller' });
    const added = await env.request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody({ name: 'Quokka Lamp' }) });
    const product = added.json() as Product;
    expect((await env.request({ method: 'GET', url: `/api/product/${product._id}` })).statusCode).toBe(404);

    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`DROP DATABASE ${replicaName} WITH (FORCE)`);
    await admin.end();

    // Every read answers, from the primary (which has the product), from the first one on.
    for (let i = 0; i < 5; i += 1) {
      const page = await env.request({ method: 'GET', url: `/api/product/${product._id}` });
      expect(page.statusCode, page.body).toBe(200);
      expect((await env.request({ method: 'GET', url: '/api/search?q=quokka' })).json().total).toBe(1);
    }
    await vi.waitFor(async () => expect((await env.request({ method: 'GET', url: '/api/health' })).json().databases.replica.state).toBe('down'), {
      timeout: 10_000,
      interval: 50,
    });
    expect((await env.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(log.join('')).toMatch(/read replica (not answering|failed a read)/);
    // No line at error level: the outage is the replica's, and no user met it.
    expect(log.filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
  });

  it('needs DATABASE_URL for a replica', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://replica/db' })).toThrow(/DATABASE_READ_URL: set DATABASE_URL too/);
  });
});
