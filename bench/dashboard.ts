/**
 * `npm run bench:dashboard`: the seller dashboard (docs/decisions/019-seller-dashboard.md) for one
 * seller with a large history on PostgreSQL. Seeds the history in SQL (orders over 15 months, one
 * line each, their timeline), then times GET /api/seller/dashboard's service for each period (p50 and
 * p99 of sequential calls, after a warm-up) and prints every query's plan (EXPLAIN ANALYZE), so a
 * missing index shows as a sequential scan. Stops the throwaway cluster it started.
 *
 *   npm run bench:dashboard -- [--orders=100000] [--runs=20] [--explain=12m] [--against=<module>] [--rounds=4] [--durations=spread|fixed]
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
import { launchServer } from './lib/processes.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './web/lighthouse-run.ts';
import { chromium, type BrowserContext } from 'playwright-core';
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
    durations: { type: 'string', default: 'spread' },
    page: { type: 'string' },
  },
});
const ORDERS = Number(values.orders);
const RUNS = Number(values.runs);
const NOW = new Date();
// How long orders waited, as a desk leaves them: accepted 1–48 hours after placing and shipped 6–125
// hours after that, to the microsecond (so the medians' buckets hold a realistic share of the orders).
// `--durations=fixed` keeps the earlier seed (every order accepted after exactly 5 hours, shipped 30–70
// hours after placing): the fulfilment medians' worst case, all of one median in one hour's bucket.
const ACCEPT_AFTER = values.durations === 'fixed' ? `interval '5 hours'` : `interval '1 hour' + ((seq * 829348793) % 170000000000) * interval '1 microsecond'`;
const SHIP_AFTER =
  values.durations === 'fixed'
    ? `interval '25 hours' + (seq % 5) * interval '10 hours'`
    : `interval '6 hours' + ((seq * 2654435761) % 430000000000) * interval '1 microsecond'`;
const SELLER = { id: 'bench-seller', name: 'Bench Seller', email: 'bench-seller@example.com', emailVerified: true, image: null };

async function seed(pool: pg.Pool, seller: { id: string; email: string }): Promise<void> {
  await pool.query(`INSERT INTO "user" (id, name, email, email_verified) VALUES ($1, $2, $3, true) ON CONFLICT (id) DO NOTHING`, [
    seller.id,
    SELLER.name,
    seller.email,
  ]);
  await pool.query(
    `INSERT INTO "user" (id, name, email, email_verified) SELECT 'bench-buyer-' || g, 'Buyer ' || g, 'bench-buyer-' || g || '@example.com', true FROM generate_series(1, 2000) g`,
  );
  await pool.query(
    `INSERT INTO products (name, image, brandname, category, price_cents, mainquantity, minquantity, owner_id, owner_email)
     SELECT 'Bench product ' || g, '/favicon.svg', 'BenchBrand', 'Office Supplies & Stationery', 100 + g, 50 + (g * 37) % 5000, 1, $1, $2 FROM generate_series(1, 200) g`,
    [seller.id, seller.email],
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
    [seller.id, ORDERS],
  );
  await pool.query(
    `INSERT INTO order_events (order_id, actor, from_status, to_status, created_at)
     SELECT id, 'buyer', NULL, 'placed', created_at FROM orders WHERE seller_id = $1
     UNION ALL SELECT id, 'seller', 'placed', 'accepted', created_at + ${ACCEPT_AFTER} FROM orders WHERE seller_id = $1 AND status IN ('accepted', 'shipped', 'delivered')
     UNION ALL SELECT id, 'seller', 'accepted', 'shipped', created_at + ${ACCEPT_AFTER} + ${SHIP_AFTER} FROM orders WHERE seller_id = $1 AND status IN ('shipped', 'delivered')`,
    [seller.id],
  );
  // The desk's accepts and shipments, 1,000 orders a transaction: the fulfilment rollup's triggers add
  // each to one counter row of its month, and one transaction updating the same row tens of thousands
  // of times walks an ever longer chain of its own row versions (production updates it once per accept).
  const { rows } = await pool.query<{ low: string; high: string }>(`SELECT min(seq) AS low, max(seq) AS high FROM orders WHERE seller_id = $1`, [seller.id]);
  for (let from = Number(rows[0]?.low); from <= Number(rows[0]?.high); from += 1000) {
    for (const [column, status] of [
      ['accepted_at', 'accepted'],
      ['shipped_at', 'shipped'],
    ] as const) {
      await pool.query(
        `UPDATE orders o SET ${column} = e.created_at FROM order_events e
         WHERE e.order_id = o.id AND e.to_status = '${status}' AND o.seller_id = $1 AND o.seq >= $2 AND o.seq < $3`,
        [seller.id, from, from + 1000],
      );
    }
  }
  await pool.query('VACUUM ANALYZE');
}

/** Signs the seller up through better-auth, as a browser would (Origin set), for its id and session cookie. */
async function signUpSeller(baseUrl: string): Promise<{ id: string; email: string; cookie: string }> {
  const email = SELLER.email;
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: SELLER.name, email, password: 'Bench-password-1234' }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('better-auth.session_token='));
  if (!cookie) throw new Error('sign-up answered without a session cookie');
  return { id: body.user.id, email, cookie };
}

/**
 * "The page is usable": from the start of navigation to /dashboard (a fresh browser context each time,
 * so nothing is cached but the server's own warm state) until the key figures and the sales chart are
 * visible, for the default period and for 12 months. Chromium from Debian, desktop size, no throttling.
 */
async function measurePage(baseUrl: string, cookie: string, runs: number): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith('--headless')) });
  try {
    const [name, value] = cookie.split('=') as [string, string];
    const steps: string[] = [];
    // The same answer over HTTP, from this process: what the request adds to the service's time.
    console.log('\nGET /api/seller/dashboard over HTTP (20 calls after 3 warm-ups):\n\n| period | p50 ms | p99 ms | load (1 min) |\n|---|---|---|---|');
    for (const period of ['30d', '12m']) {
      const samples: number[] = [];
      for (let i = 0; i < 23; i++) {
        const t = performance.now();
        const response = await fetch(`${baseUrl}/api/seller/dashboard?period=${period}`, { headers: { cookie, 'accept-encoding': 'gzip, br' } });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`GET /api/seller/dashboard answered ${response.status}`);
        if (i >= 3) samples.push(performance.now() - t);
      }
      const { p50, p99 } = summarize(samples);
      console.log(`| ${period} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${loadavg()[0]!.toFixed(1)} |`);
    }
    console.log(
      `\nThe page in Chromium, ${runs} runs each after a warm-up: ms from the start of navigation until the key figures and the chart are in the page, by the page's own clock (a MutationObserver installed before any script), and as Playwright saw it (its goto and two waits, each a round trip to the browser):\n`,
    );
    console.log(
      '| page | browser cache | runs, page clock (ms) | median ms, page clock | median ms, as Playwright saw it | load (1 min) |\n|---|---|---|---|---|---|',
    );
    // Cold: a fresh browser context each run (nothing cached: a first visit). Warm: one context, a new
    // tab each run (the hashed scripts come from the browser's cache, as for a seller's daily visit).
    for (const path of ['/dashboard', '/dashboard?period=12m']) {
      for (const cache of ['cold', 'warm'] as const) {
        const samples: number[] = [];
        const observed: number[] = [];
        let shared: BrowserContext | null = null;
        for (let i = 0; i <= runs; i++) {
          const context: BrowserContext = cache === 'warm' && shared !== null ? shared : await browser.newContext({ viewport: { width: 1280, height: 900 } });
          if (context !== shared) await context.addCookies([{ name, value, url: baseUrl }]);
          if (cache === 'warm') shared = context;
          const page = await context.newPage();
          await page.addInitScript(MARK_USABLE);
          const started = performance.now();
          await page.goto(`${baseUrl}${path}`, { waitUntil: 'commit' });
          await page.locator('ul[aria-label="Key figures"] > li').first().waitFor({ state: 'visible' });
          await page.locator('[role="img"] > svg').first().waitFor({ state: 'visible' });
          const elapsed = performance.now() - started;
          const usableAt = await page.evaluate<number>('window.__dashboardUsableAt');
          if (i > 0) {
            samples.push(usableAt);
            observed.push(elapsed);
          }
          if (i === runs) steps.push(`${path}, ${cache}: ${await page.evaluate<string>(DESCRIBE_LOAD)}`);
          if (cache === 'cold') await context.close();
          else await page.close();
        }
        await shared?.close();
        console.log(
          `| \`${path}\` | ${cache} | ${samples.map((t) => t.toFixed(0)).join(', ')} | ${summarize(samples).p50.toFixed(0)} | ${summarize(observed).p50.toFixed(0)} | ${loadavg()[0]!.toFixed(1)} |`,
        );
      }
    }
    console.log(`\nWhere the last run's time went (ms after navigation start, from the page's own timings):\n\n${steps.map((s) => `- ${s}`).join('\n')}`);
  } finally {
    await browser.close();
  }
}

/**
 * Installed before the page's own scripts (bench has no DOM types): records, by the page's clock (ms
 * after navigation start), the first moment the key figures and the chart's drawing are both in the
 * document, which is what a seller waits for.
 */
const MARK_USABLE = `(() => {
  const usable = () => document.querySelector('ul[aria-label="Key figures"] > li') && document.querySelector('[role="img"] > svg');
  const observer = new MutationObserver(() => {
    if (window.__dashboardUsableAt === undefined && usable()) {
      window.__dashboardUsableAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
})()`;

/**
 * Evaluated in the page (bench has no DOM types): the document, each script and API answer
 * (start–end), and now, when the figures are visible; ms after navigation start.
 */
const DESCRIBE_LOAD = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const parts = ['document ' + nav.responseEnd.toFixed(0), 'DOMContentLoaded ' + nav.domContentLoadedEventEnd.toFixed(0)];
  for (const r of performance.getEntriesByType('resource')) {
    const path = new URL(r.name).pathname;
    if (path.startsWith('/api/') || path.endsWith('.js')) parts.push(path.replace('/assets/', '') + ' ' + r.startTime.toFixed(0) + '–' + r.responseEnd.toFixed(0));
  }
  parts.push('visible ' + performance.now().toFixed(0));
  return parts.join(', ');
})()`;

async function main(): Promise<void> {
  const cluster = await startThrowawayPostgres();
  try {
    const url = await createEmptyDatabase(cluster.url, 'bench_dashboard');
    const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
    await runMigrations(database);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    // With --page, the seller is a real account of the real server (signed up through it), so a browser
    // can open its dashboard; otherwise a row in "user" is enough for the service.
    const server = values.page === undefined ? null : await launchServer({ database: { kind: 'postgres', url }, seedDemo: false, name: 'server' });
    const seller = server === null ? { ...SELLER, cookie: '' } : await signUpSeller(server.url);
    const started = Date.now();
    await seed(pool, seller);
    console.log(`Seeded ${ORDERS} orders for one seller in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);

    const ctx = { db: database.db, user: { ...SELLER, id: seller.id, email: seller.email } as never, clock: () => NOW };
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
    if (server !== null) {
      await measurePage(server.url, seller.cookie, Number(values.page));
      await server.stop();
    }
    await pool.end();
    await database.close();
  } finally {
    cluster.stop();
  }
}

await main();
