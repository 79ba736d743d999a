/**
 * `npm run bench:dashboard`: the seller dashboard (docs/decisions/019-seller-dashboard.md) for one
 * seller with a large history on PostgreSQL. Seeds the history in SQL (orders over 15 months, one
 * line each, their timeline), then times GET /api/seller/dashboard's service for each period (p50 and
 * p99 of sequential calls, after a warm-up) and prints every query's plan (EXPLAIN ANALYZE), so a
 * missing index shows as a sequential scan. Stops the throwaway cluster it started.
 *
 *   npm run bench:dashboard -- [--orders=100000] [--runs=20] [--explain=12m] [--against=<module>] [--rounds=4]
 *
 * `--against=` (a path from the repository root to a copy of dashboard.service.ts, e.g. the one on
 * main) times that getDashboard too, in alternating rounds on the same database, so a change is
 * compared with what it replaces on the same machine at the same load.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { DASHBOARD_PERIODS, dashboardPeriodSchema } from '@bulkcart/contracts';
import { createEmptyDatabase, startThrowawayPostgres } from '../scripts/throwaway-postgres.ts';
import * as schema from '../apps/server/src/db/schema/index.ts';
import { openDatabase, type Db } from '../apps/server/src/db/client.ts';
import { runMigrations } from '../apps/server/src/db/migrate.ts';
import { getDashboard } from '../apps/server/src/modules/dashboard/dashboard.service.ts';
import { summarize } from './lib/stats.ts';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '20' },
    explain: { type: 'string', default: '12m' },
    against: { type: 'string' },
    rounds: { type: 'string', default: '4' },
  },
});
const ORDERS = Number(values.orders);
const RUNS = Number(values.runs);
const NOW = new Date();
const SELLER = { id: 'bench-seller', name: 'Bench Seller', email: 'bench-seller@example.com', emailVerified: true, image: null };

async function seed(pool: pg.Pool): Promise<void> {
  await pool.query(`INSERT INTO "user" (id, name, email, email_verified) VALUES ($1, $2, $3, true)`, [SELLER.id, SELLER.name, SELLER.email]);
  await pool.query(
    `INSERT INTO "user" (id, name, email, email_verified) SELECT 'bench-buyer-' || g, 'Buyer ' || g, 'bench-buyer-' || g || '@example.com', true FROM generate_series(1, 2000) g`,
  );
  await pool.query(
    `INSERT INTO products (name, image, brandname, category, price_cents, mainquantity, minquantity, owner_id, owner_email)
     SELECT 'Bench product ' || g, '/favicon.svg', 'BenchBrand', 'Office Supplies & Stationery', 100 + g, 50 + (g * 37) % 5000, 1, $1, $2 FROM generate_series(1, 200) g`,
    [SELLER.id, SELLER.email],
  );
  // Orders spread evenly over the last 450 days; statuses by the order's age, as a real desk would leave them.
  await pool.query(
    `WITH p AS (SELECT id, name, price_cents, row_number() OVER (ORDER BY seq) AS n FROM products WHERE owner_id = $1),
     o AS (
       SELECT g, gen_random_uuid() AS id, now() - (g::float8 / $2 * interval '450 days') AS created_at,
              'bench-buyer-' || (1 + (g * 7919) % 2000) AS buyer_id, 1 + (g * 31) % 200 AS product_n, 1 + g % 12 AS quantity
       FROM generate_series(1, $2) g
     ),
     ins AS (
       INSERT INTO orders (id, status, buyer_id, buyer_email, buyer_name, seller_id, seller_name, total_cents, ship_by, created_at, updated_at, reason)
       SELECT o.id,
              CASE WHEN o.g % 23 = 0 THEN 'cancelled' WHEN o.g % 29 = 0 THEN 'declined' WHEN o.created_at > now() - interval '1 day' THEN 'placed'
                   WHEN o.created_at > now() - interval '3 days' THEN 'accepted' ELSE 'delivered' END,
              o.buyer_id, o.buyer_id || '@example.com', 'Buyer', $1, 'Bench Seller', p.price_cents * o.quantity,
              (o.created_at + interval '2 days')::date, o.created_at, o.created_at,
              CASE WHEN o.g % 23 = 0 THEN 'Not accepted in time' END
       FROM o JOIN p ON p.n = o.product_n
       RETURNING id, created_at
     )
     INSERT INTO order_lines (order_id, position, product_id, quantity, unit_price_cents, line_total_cents, list_unit_price_cents, product_name, product_image, product_brand, product_category, product_minquantity)
     SELECT o.id, 1, p.id, o.quantity, p.price_cents, p.price_cents * o.quantity, p.price_cents, p.name, '/favicon.svg', 'BenchBrand', 'Office Supplies & Stationery', 1
     FROM o JOIN p ON p.n = o.product_n`,
    [SELLER.id, ORDERS],
  );
  await pool.query(
    `INSERT INTO order_events (order_id, actor, from_status, to_status, created_at)
     SELECT id, 'buyer', NULL, 'placed', created_at FROM orders WHERE seller_id = $1
     UNION ALL SELECT id, 'seller', 'placed', 'accepted', created_at + interval '5 hours' FROM orders WHERE seller_id = $1 AND status IN ('accepted', 'shipped', 'delivered')
     UNION ALL SELECT id, 'seller', 'accepted', 'shipped', created_at + interval '30 hours' + (seq % 5) * interval '10 hours' FROM orders WHERE seller_id = $1 AND status IN ('shipped', 'delivered')`,
    [SELLER.id],
  );
  await pool.query(`UPDATE orders o SET accepted_at = e.created_at FROM order_events e WHERE e.order_id = o.id AND e.to_status = 'accepted'`);
  await pool.query(`UPDATE orders o SET shipped_at = e.created_at FROM order_events e WHERE e.order_id = o.id AND e.to_status = 'shipped'`);
  await pool.query('VACUUM ANALYZE');
}

async function main(): Promise<void> {
  const cluster = await startThrowawayPostgres();
  try {
    const url = await createEmptyDatabase(cluster.url, 'bench_dashboard');
    const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
    await runMigrations(database);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const started = Date.now();
    await seed(pool);
    console.log(`Seeded ${ORDERS} orders for one seller in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);

    const ctx = { db: database.db, user: SELLER as never, clock: () => NOW };
    if (values.against !== undefined) {
      const against = (await import(pathToFileURL(resolve(values.against)).href)) as { getDashboard: typeof getDashboard };
      const variants = { this: getDashboard, against: against.getDashboard };
      console.log(`Alternating rounds: this tree against ${values.against}, ${RUNS} calls a period a round.\n`);
      console.log('| round | load (1 min) | variant | ' + DASHBOARD_PERIODS.map((p) => `${p} p50`).join(' | ') + ' |');
      console.log('|---|---|---|' + DASHBOARD_PERIODS.map(() => '---').join('|') + '|');
      for (let round = 1; round <= Number(values.rounds); round++) {
        // Which goes first alternates too, so neither always runs on the warmer cache.
        const order = round % 2 === 1 ? (['this', 'against'] as const) : (['against', 'this'] as const);
        for (const name of order) {
          const cells: string[] = [];
          for (const period of DASHBOARD_PERIODS) {
            for (let i = 0; i < 3; i++) await variants[name](ctx, { period });
            const samples: number[] = [];
            for (let i = 0; i < RUNS; i++) {
              const t = performance.now();
              await variants[name](ctx, { period });
              samples.push(performance.now() - t);
            }
            cells.push(summarize(samples).p50.toFixed(1));
          }
          console.log(`| ${round} | ${loadavg()[0]!.toFixed(1)} | ${name} | ${cells.join(' | ')} |`);
        }
      }
    } else {
      console.log('| period | p50 ms | p99 ms |\n|---|---|---|');
      for (const period of DASHBOARD_PERIODS) {
        for (let i = 0; i < 3; i++) await getDashboard(ctx, { period });
        const samples: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const t = performance.now();
          await getDashboard(ctx, { period });
          samples.push(performance.now() - t);
        }
        const { p50, p99 } = summarize(samples);
        console.log(`| ${period} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | (load ${loadavg()[0]!.toFixed(1)})`);
      }
    }

    // Every query of one period's dashboard (12 months unless --explain= says), planned with the figures it really read.
    const logged: Array<{ sql: string; params: unknown[] }> = [];
    const logging = drizzle(pool, { schema, logger: { logQuery: (sql, params) => void logged.push({ sql, params }) } }) as unknown as Db;
    await getDashboard({ ...ctx, db: logging }, { period: dashboardPeriodSchema.parse(values.explain) });
    for (const query of logged) {
      const plan = (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${query.sql}`, query.params)).rows.map(
        (r) => r['QUERY PLAN'],
      );
      console.log(`\n----\n${query.sql.replace(/\s+/g, ' ').slice(0, 160)}…\n${plan.join('\n')}`);
    }
    await pool.end();
    await database.close();
  } finally {
    cluster.stop();
  }
}

await main();
