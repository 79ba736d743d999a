import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { prepareDatabase } from '../start.ts';
import { openDatabase, type Database } from './client.ts';
import { queryRows } from './rows.ts';
import { createPostgresDatabase, createTestEnv } from '../../test/helpers/test-app.ts';
import { asUser, signUpUser } from '../../test/helpers/accounts.ts';
import { validProductBody } from '../../test/helpers/products.ts';

const script = fileURLToPath(new URL('../../../../scripts/local-cluster.sh', import.meta.url));

/**
 * The server behind PgBouncer in transaction pooling (docs/deploy.md): a server connection is lent for
 * one transaction, so nothing may lean on session state. PgBouncer comes from scripts/local-cluster.sh,
 * in front of this run's throwaway PostgreSQL.
 */
describe('through PgBouncer in transaction pooling', () => {
  let dir = '';
  let direct = '';
  let pooled = '';
  let drop: () => Promise<void> = async () => {};
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    direct = database.url;
    const url = new URL(direct);
    dir = mkdtempSync(join(tmpdir(), 'bulkcart-pooler-'));
    const port = execFileSync('bash', [script, 'pooler', dir, `${url.hostname}:${url.port}`, url.pathname.slice(1)], { encoding: 'utf8' }).trim();
    url.port = port;
    pooled = url.toString();
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    if (dir) execFileSync('bash', [script, 'stop', dir]);
    await drop();
  });

  it('migrates on the direct DATABASE_MIGRATION_URL, then serves sign-up, products and orders through the pooler', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: pooled, DATABASE_MIGRATION_URL: direct });
    const before = await openDatabase({ kind: 'postgres', url: direct, poolSize: 1 });
    const tables = () =>
      queryRows<{ n: number }>(before.db, sql`SELECT count(*)::int AS n FROM pg_tables WHERE tablename IN ('products', 'orders', 'background_tasks')`);
    expect((await tables())[0]?.n).toBe(0);
    await (await prepareDatabase(config)).close();
    expect((await tables())[0]?.n).toBe(3);
    await before.close();

    // Debian's PgBouncer (1.18) keeps no statement name across transactions: the purchase goes unnamed.
    const env = await createTestEnv('postgres', { DATABASE_URL: pooled, DB_NAMED_STATEMENTS: 'false' });
    cleanups.push(() => env.close());
    const seller = await signUpUser(env, { name: 'Pooled Seller' });
    const buyer = await signUpUser(env, { name: 'Pooled Buyer' });
    // Many requests at once: each transaction gets whichever server connection is free.
    const added = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        env.request({
          method: 'POST',
          url: '/api/addproduct',
          headers: asUser(seller),
          payload: validProductBody({ name: `Pooled ${i}`, mainquantity: 50, minquantity: 1 }),
        }),
      ),
    );
    for (const answer of added) expect(answer.statusCode, answer.body).toBe(201);
    const productId = (added[0]!.json() as { _id: string })._id;
    const orders = await Promise.all(
      Array.from({ length: 12 }, () => env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity: 5 } })),
    );
    // 50 in stock, 12 orders of 5: ten are placed, two refused, none oversold.
    expect(orders.filter((answer) => answer.statusCode === 201)).toHaveLength(10);
    const product = await env.request({ method: 'GET', url: `/api/product/${productId}` });
    expect(product.json()).toMatchObject({ mainquantity: 0 });
  });

  it('keeps the start-up lock exclusive across processes through the pooler', async () => {
    const holders: Database[] = await Promise.all([1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: pooled, poolSize: 3 })));
    cleanups.push(async () => {
      for (const holder of holders) await holder.close();
    });
    let inside = 0;
    let overlapped = false;
    let entries = 0;
    await Promise.all(
      holders.flatMap((holder) =>
        [1, 2].map(() =>
          holder.withExclusiveLock(987_654, async () => {
            inside += 1;
            entries += 1;
            if (inside > 1) overlapped = true;
            // Work on the holder's other connections, as the migrations do.
            await queryRows(holder.db, sql`SELECT pg_sleep(0.05)`);
            inside -= 1;
          }),
        ),
      ),
    );
    expect(entries).toBe(6);
    expect(overlapped).toBe(false);
    // No lock stays behind on a pooled server connection.
    const left = await queryRows<{ n: number }>(holders[0]!.db, sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`);
    expect(left[0]?.n).toBe(0);
  });
});
