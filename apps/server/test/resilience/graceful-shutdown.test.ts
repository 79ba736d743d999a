import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../../scripts/throwaway-postgres.ts';
import { createDataHome, listCatalog } from './support/server-data.ts';
import { bearer, send, type HttpAnswer } from './support/http-client.ts';
import { startServer, type ServerProcess } from './support/server-process.ts';

/** docs/reliability.md: graceful shutdown. */
const IN_FLIGHT = 100;

interface Outcome {
  answer?: HttpAnswer;
  error?: string;
}

/** Sends one order on its own connection and records the answer or the failure (e.g. a reset). */
function placeOrder(server: ServerProcess, token: string, productId: string): Promise<Outcome> {
  return send(server.url, {
    method: 'POST',
    path: '/api/order',
    headers: { ...bearer(token), 'idempotency-key': randomUUID() },
    body: { productId, quantity: 1 },
  }).then(
    (answer) => ({ answer }),
    (error: Error) => ({ error: error.message }),
  );
}

function summarise(outcomes: Outcome[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const o of outcomes) {
    const key = o.answer ? String(o.answer.status) : `error: ${o.error}`;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return tally;
}

type DataHome = Awaited<ReturnType<typeof createDataHome>>;

/**
 * What a clean shutdown leaves: every order it had taken answered 201, exit code 0 (server.ts exits 1
 * when its deadline fires), nothing logged as an error, and exactly those orders booked.
 */
async function expectEveryOrderAnsweredAndBooked(
  server: ServerProcess,
  home: DataHome,
  outcomes: Outcome[],
  productId: string,
  initialStock: number,
): Promise<void> {
  const exit = await server.exited;
  expect(summarise(outcomes)).toEqual({ '201': IN_FLIGHT });
  expect(exit.code).toBe(0);
  expect(server.errorLines()).toEqual([]);
  const ledger = await home.readLedger();
  expect(ledger.liveByProduct.get(productId)).toBe(IN_FLIGHT);
  expect(ledger.stockByProduct.get(productId)).toBe(initialStock - IN_FLIGHT);
}

/**
 * Fair on a slow machine: the clean-shutdown tests give the server far longer than its default 10 s
 * deadline, so they prove what it finishes, not how fast; the deadline itself has its own test.
 */
const PATIENT_DEADLINE_MS = 120_000;

/**
 * A PostgreSQL server with `count` orders for one product inside it, waiting on the product's row, which
 * a transaction of the test holds (release it with `holder.query('COMMIT')`): one order's statement at
 * the row, the others in the server's queue for that product (lib/row-batcher.ts).
 */
async function ordersWaitingOnAHeldRow(
  home: DataHome,
  count: number,
  settings: Record<string, string>,
): Promise<{ server: ServerProcess; holder: pg.Client; running: Promise<Outcome>[]; answered: () => number; productId: string; initialStock: number }> {
  const holder = new pg.Client({ connectionString: home.env.DATABASE_URL });
  let server: ServerProcess | undefined;
  try {
    // trace level logs every request as it starts, which is how we know all of them are inside the server.
    const live = await startServer({
      port: await freePort(),
      env: { ...home.env, DB_POOL_SIZE: String(count + 10), LOG_LEVEL: 'trace', ...settings },
    });
    server = live;
    const { buyers, stock } = await listCatalog(live.url, 1, randomUUID().slice(0, 8));
    const productId = [...stock.keys()][0]!;

    // Hold the product's row: the first order's guarded stock update waits on it, and the others on that one.
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM products WHERE id = $1 FOR UPDATE', [productId]);
    const mark = live.output().length;
    let answered = 0;
    const running = Array.from({ length: count }, () =>
      placeOrder(live, buyers[0]!.token, productId).then((o) => {
        answered += 1;
        return o;
      }),
    );
    const started = () =>
      live
        .output()
        .slice(mark)
        .split('\n')
        .filter((l) => l.includes('"path":"/api/order"') && l.includes('incoming request')).length;
    const lockWaiters = async () =>
      (await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`))
        .rows[0]?.n ?? 0;
    while (started() < count || (await lockWaiters()) === 0) {
      // Nothing can finish while the row is held; an early answer is a failure to explain.
      if (answered > 0) throw new Error(`answered before the row was released: ${JSON.stringify(summarise(await Promise.all(running)))}`);
      await sleep(50);
    }
    return { server: live, holder, running, answered: () => answered, productId, initialStock: stock.get(productId)! };
  } catch (error) {
    await releaseHeld({ holder, server });
    throw error;
  }
}

/** Ends the test's transaction and kills the server, whatever state they were left in. */
async function releaseHeld(held: { holder: pg.Client; server?: ServerProcess | undefined } | undefined): Promise<void> {
  await held?.holder.end().catch(() => {});
  await held?.server?.kill('SIGKILL');
}

describe.concurrent('graceful shutdown: SIGTERM with 100 requests in flight', () => {
  it('[postgres] answers all 100 requests it was working on, then exits cleanly', async () => {
    const home = await createDataHome('postgres');
    let held: Awaited<ReturnType<typeof ordersWaitingOnAHeldRow>> | undefined;
    try {
      held = await ordersWaitingOnAHeldRow(home, IN_FLIGHT, { SHUTDOWN_DEADLINE_MS: String(PATIENT_DEADLINE_MS) });
      const { server, holder, running } = held;
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await sleep(500);
      // The orders cannot finish while the row is held: the server must still be there, waiting.
      expect(server.child.exitCode).toBeNull();
      expect(held.answered()).toBe(0);
      await holder.query('COMMIT');

      const outcomes = await Promise.all(running);
      const exit = await server.exited;
      const seconds = (Date.now() - signalled) / 1000;
      console.log(
        `[shutdown postgres] ${IN_FLIGHT} orders inside the server at SIGTERM; answers ${JSON.stringify(summarise(outcomes))}; exit code ${exit.code} after ${seconds.toFixed(1)} s`,
      );
      await expectEveryOrderAnsweredAndBooked(server, home, outcomes, held.productId, held.initialStock);
    } finally {
      await releaseHeld(held);
      await home.remove();
    }
  }, 300_000);

  it('[postgres] past SHUTDOWN_DEADLINE_MS exits 1, logging how many requests it cut off', async () => {
    const home = await createDataHome('postgres');
    const cutOff = 5;
    let held: Awaited<ReturnType<typeof ordersWaitingOnAHeldRow>> | undefined;
    try {
      held = await ordersWaitingOnAHeldRow(home, cutOff, { SHUTDOWN_DEADLINE_MS: '1000' });
      const { server, holder, running } = held;
      // The row stays held past the deadline: these orders hang, as a request stuck on a lock would.
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      const exit = await server.exited;
      const seconds = (Date.now() - signalled) / 1000;
      const outcomes = await Promise.all(running);
      await holder.query('ROLLBACK');
      console.log(
        `[shutdown deadline] ${cutOff} orders held past a 1 s deadline; answers ${JSON.stringify(summarise(outcomes))}; exit code ${exit.code} after ${seconds.toFixed(1)} s`,
      );

      expect(exit.code).toBe(1);
      // The setting took effect: the default deadline (10 s) would still be running.
      expect(seconds).toBeLessThan(8);
      expect(outcomes.every((o) => o.error !== undefined)).toBe(true);
      const said = server.errorLines().map((line) => JSON.parse(line) as { msg: string; inFlight?: number });
      expect(said).toEqual([
        expect.objectContaining({ msg: 'shutdown deadline passed: exiting with requests still in flight', inFlight: cutOff, deadlineMs: 1000 }),
      ]);
      // The orders' statements outlive the process: once the row is free each one runs, whole or not at
      // all, and its connection closes. When none is left, the books balance.
      await vi.waitFor(
        async () => {
          const others = await holder.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
          );
          expect(others.rows[0]?.n).toBe(0);
        },
        { timeout: 30_000, interval: 100 },
      );
      const ledger = await home.readLedger();
      expect((ledger.liveByProduct.get(held.productId) ?? 0) + ledger.stockByProduct.get(held.productId)!).toBe(held.initialStock);
    } finally {
      await releaseHeld(held);
      await home.remove();
    }
  }, 300_000);

  it('[pglite] answers every request it had taken when SIGTERM came, then exits cleanly', async () => {
    const home = await createDataHome('pglite');
    let server: ServerProcess | undefined;
    try {
      server = await startServer({ port: await freePort(), env: { ...home.env, SHUTDOWN_DEADLINE_MS: String(PATIENT_DEADLINE_MS) } });
      const { buyers, stock } = await listCatalog(server.url, 1, randomUUID().slice(0, 8));
      const productId = [...stock.keys()][0]!;

      // PGlite has one connection, so 100 orders queue up inside the server one behind the other.
      let answered = 0;
      const running = Array.from({ length: IN_FLIGHT }, () =>
        placeOrder(server!, buyers[0]!.token, productId).then((o) => {
          answered += 1;
          return o;
        }),
      );
      // The first answer shows the server is working through the queue; then the signal comes.
      while (answered === 0) await sleep(5);
      const inFlight = IN_FLIGHT - answered;
      const signalled = Date.now();
      server.child.kill('SIGTERM');

      const outcomes = await Promise.all(running);
      const exit = await server.exited;
      const seconds = (Date.now() - signalled) / 1000;
      console.log(
        `[shutdown pglite] ${inFlight} of ${IN_FLIGHT} orders unanswered at SIGTERM; answers ${JSON.stringify(summarise(outcomes))}; exit code ${exit.code} after ${seconds.toFixed(1)} s`,
      );
      expect(inFlight).toBeGreaterThan(0);
      await expectEveryOrderAnsweredAndBooked(server, home, outcomes, productId, stock.get(productId)!);
    } finally {
      await server?.kill('SIGKILL');
      await home.remove();
    }
  }, 300_000);
});
