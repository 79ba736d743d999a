import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signUp, signUpMany } from '../lib/accounts.ts';
import type { Baseline } from '../lib/baseline.ts';
import type { BenchContext } from '../lib/context.ts';
import { measureCpu, readPostmasterPid } from '../lib/cpu.ts';
import { createPostgresDatabase, withSql } from '../lib/databases.ts';
import { httpRequest } from '../lib/http.ts';
import { mergeLoads, runLoad, type LoadResult } from '../lib/load.ts';
import {
  checkStock,
  countPlaced,
  listFloorProducts,
  orderRequestsFor,
  PURCHASE_SERVER_ENV,
  settle,
  tidyAfterWrites,
  type FloorProduct,
} from '../lib/order-floor.ts';
import { startCeilingServer, startServerProcess, type ChildServer, type DatabaseTarget } from '../lib/processes.ts';
import { summarize } from '../lib/stats.ts';
import { checkCheckoutBooks, describeCarts, runCheckouts, setUpCheckoutFloor, type CheckoutFloor } from './checkout.ts';
import { BUYERS, FLOOR } from './orders.ts';

/**
 * `bench:api --compare=<commit>`: an earlier commit's server (bench/lib/baseline.ts) and this checkout's,
 * each on its own PostgreSQL database, measured in turns in one run (base then this, then this then
 * base, …), so whatever else the machine does hits both alike. Prints each measure for both and the
 * ratio this ÷ base. The books are checked afterwards on both sides, as in the ordinary parts.
 */

export const COMPARE_PARTS = ['orders', 'read', 'checkout'] as const;
export type ComparePart = (typeof COMPARE_PARTS)[number];

type Side = 'base' | 'this';
const SIDES: Side[] = ['base', 'this'];
/** Checkouts per side and round. */
const CHECKOUTS_PER_ROUND = 60;
const READ_PATH = '/api/allproduct?limit=48';

export interface ComparedMeasure {
  measure: string;
  /** Which way is better, for reading the ratio. */
  better: 'lower' | 'higher';
  base: number;
  this: number;
  /** Each round's figure, in round order. */
  baseRounds: number[];
  thisRounds: number[];
}

export interface CompareResult {
  baseCommit: string;
  rounds: number;
  parts: ComparePart[];
  measures: ComparedMeasure[];
  /** Correctness afterwards, per side (oversold, books, orders per checkout…). */
  checks: Array<{ what: string; base: string; this: string }>;
}

interface Tally {
  runs: LoadResult[];
  units: number[];
  seconds: number[];
}

const emptyTally = (): Tally => ({ runs: [], units: [], seconds: [] });

async function inTurns(rounds: number, run: (side: Side, round: number) => Promise<void>): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? SIDES : [...SIDES].reverse()) await run(side, round);
  }
}

function perRound(t: Tally, value: (run: LoadResult, units: number, seconds: number) => number): number[] {
  return t.runs.map((run, i) => value(run, t.units[i] ?? 0, t.seconds[i] ?? 0));
}

interface SideServer {
  server: ChildServer;
  target: DatabaseTarget;
}

async function startSide(context: BenchContext, baseline: Baseline, side: Side, label: string, seedDemo = false): Promise<SideServer> {
  const target = await createPostgresDatabase(context.pgAdminUrl, `compare_${label}_${side}`);
  const server = await startServerProcess({
    database: target,
    name: `${label}-${side}`,
    // Reads as the read part runs them (rate limits on); purchases with e-mail on, limits off (64 buyers).
    env: seedDemo ? { RATE_LIMIT: 'true' } : PURCHASE_SERVER_ENV,
    seedDemo,
    ...(side === 'base' ? { root: baseline.root } : {}),
  });
  return { server, target };
}

interface OrdersSide extends SideServer {
  products: FloorProduct[];
  requestsFor: ReturnType<typeof orderRequestsFor>;
  /** The unmeasured runs: the first warm-up and each round's re-warm (their orders count in the books). */
  warm: LoadResult[];
  tally: Tally;
}

/**
 * How long each side is loaded, unmeasured, right before each of its measured runs. The other side's
 * run in between lasts longer than the pool's idle timeout (node-postgres's 10 s), so without it a side
 * started its run on new connections, parsing and planning its prepared statements again: the side
 * that ran second in a round read a third to 85 % more CPU per order and about twice the p99 (docs/benchmarks-history.md).
 */
const REWARM_SECONDS = 2;

async function compareOrders(context: BenchContext, baseline: Baseline, rounds: number, result: CompareResult): Promise<void> {
  const pg = [readPostmasterPid(context.pgDataDir)];
  const started: ChildServer[] = [];
  const sides = new Map<Side, OrdersSide>();
  try {
    for (const side of SIDES) {
      const s = await startSide(context, baseline, side, 'orders');
      started.push(s.server);
      context.log(`compare orders (${side}): signing up ${BUYERS} buyers and a seller`);
      const seller = await signUp(s.server.url, 'Bench Seller', 'seller');
      const buyers = await signUpMany(s.server.url, BUYERS, 'Buyer');
      const products = await listFloorProducts(s.server.url, seller, FLOOR);
      const requestsFor = orderRequestsFor(buyers, products);
      const warm = await runLoad({ url: s.server.url, connections: context.connections, duration: context.warmup, requestsFor });
      sides.set(side, { ...s, products, requestsFor, warm: [warm], tally: emptyTally() });
    }
    await inTurns(rounds, async (side, round) => {
      const s = sides.get(side);
      if (!s) return;
      context.log(`compare orders: round ${round + 1}/${rounds}, ${side}`);
      s.warm.push(await runLoad({ url: s.server.url, connections: context.connections, duration: REWARM_SECONDS, requestsFor: s.requestsFor }));
      await settle();
      const measured = await measureCpu([s.server.pid], pg, () =>
        runLoad({ url: s.server.url, connections: context.connections, duration: context.duration, requestsFor: s.requestsFor }),
      );
      s.tally.runs.push(measured.result);
      s.tally.units.push(measured.result.statusCounts['201'] ?? 0);
      s.tally.seconds.push(measured.cpuSeconds);
      await tidyAfterWrites(s.target);
    });
    await settle();
  } finally {
    for (const server of started) await server.stop();
  }
  const figures = (side: Side) => {
    const s = sides.get(side) as OrdersSide;
    const merged = mergeLoads(s.tally.runs);
    const placed = s.tally.units.reduce((a, b) => a + b, 0);
    const seconds = s.tally.seconds.reduce((a, b) => a + b, 0);
    return { s, merged, cpu: (seconds / Math.max(1, placed)) * 1e6 };
  };
  const base = figures('base');
  const head = figures('this');
  result.measures.push(
    {
      measure: `Buy Now: CPU µs per order (server + PostgreSQL), ${context.connections} buyers`,
      better: 'lower',
      base: base.cpu,
      this: head.cpu,
      baseRounds: perRound(base.s.tally, (_r, units, seconds) => (seconds / Math.max(1, units)) * 1e6),
      thisRounds: perRound(head.s.tally, (_r, units, seconds) => (seconds / Math.max(1, units)) * 1e6),
    },
    {
      measure: 'Buy Now: orders/s',
      better: 'higher',
      base: (base.merged.statusCounts['201'] ?? 0) / base.merged.durationS,
      this: (head.merged.statusCounts['201'] ?? 0) / head.merged.durationS,
      baseRounds: perRound(base.s.tally, (r) => (r.statusCounts['201'] ?? 0) / r.durationS),
      thisRounds: perRound(head.s.tally, (r) => (r.statusCounts['201'] ?? 0) / r.durationS),
    },
    {
      measure: 'Buy Now: p99 ms',
      better: 'lower',
      base: base.merged.p99,
      this: head.merged.p99,
      baseRounds: perRound(base.s.tally, (r) => r.p99),
      thisRounds: perRound(head.s.tally, (r) => r.p99),
    },
  );
  const books = await Promise.all(
    SIDES.map(async (side) => {
      const s = sides.get(side) as OrdersSide;
      const check = await withSql(s.target, (query) =>
        checkStock(query, s.products, countPlaced([...s.warm, ...s.tally.runs]), (s.warm.length + s.tally.runs.length) * context.connections),
      );
      return `${check.ok ? 'yes' : '**NO**'} (oversold ${check.oversold}, unbalanced ${check.unbalanced}, orders without notice + e-mail ${check.unnotified})`;
    }),
  );
  result.checks.push({
    what: 'Buy Now: nothing oversold, stock + sold = initial, one order per 201, every order notified with its e-mail',
    base: books[0] ?? '',
    this: books[1] ?? '',
  });
}

async function compareRead(context: BenchContext, baseline: Baseline, rounds: number, result: CompareResult): Promise<void> {
  const pg = [readPostmasterPid(context.pgDataDir)];
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-compare-'));
  const servers = new Map<Side | 'ceiling', { server: ChildServer; tally: Tally; bytes: number }>();
  try {
    for (const side of SIDES) {
      const { server } = await startSide(context, baseline, side, 'read', true);
      servers.set(side, { server, tally: emptyTally(), bytes: 0 });
      const sample = await httpRequest(`${server.url}${READ_PATH}`);
      if (sample.status !== 200) throw new Error(`${side}: ${READ_PATH} → ${sample.status}`);
      (servers.get(side) as { bytes: number }).bytes = sample.body.length;
      if (side === 'this') {
        writeFileSync(path.join(scratch, 'body'), sample.body);
        const ceiling = await startCeilingServer(path.join(scratch, 'body'), String(sample.headers['content-type']));
        servers.set('ceiling', { server: ceiling, tally: emptyTally(), bytes: sample.body.length });
      }
    }
    for (const [, s] of servers) await runLoad({ url: `${s.server.url}${READ_PATH}`, connections: context.connections, duration: context.warmup });
    for (let round = 0; round < rounds; round++) {
      const order: Array<Side | 'ceiling'> = round % 2 === 0 ? ['base', 'ceiling', 'this'] : ['this', 'ceiling', 'base'];
      for (const who of order) {
        const s = servers.get(who);
        if (!s) continue;
        context.log(`compare read: round ${round + 1}/${rounds}, ${who}`);
        const measured = await measureCpu([s.server.pid], who === 'ceiling' ? [] : pg, () =>
          runLoad({ url: `${s.server.url}${READ_PATH}`, connections: context.connections, duration: context.duration }),
        );
        s.tally.runs.push(measured.result);
        s.tally.units.push(measured.result.responses);
        s.tally.seconds.push(measured.cpuSeconds);
      }
    }
  } finally {
    for (const s of servers.values()) await s.server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  const figures = (who: Side | 'ceiling') => {
    const s = servers.get(who) as { tally: Tally; bytes: number };
    const merged = mergeLoads(s.tally.runs);
    return {
      s,
      merged,
      cpu:
        (s.tally.seconds.reduce((a, b) => a + b, 0) /
          Math.max(
            1,
            s.tally.units.reduce((a, b) => a + b, 0),
          )) *
        1e6,
    };
  };
  const base = figures('base');
  const head = figures('this');
  const ceiling = figures('ceiling');
  const ofCeiling = (t: Tally) => t.runs.map((r, i) => r.okPerSecond / (ceiling.s.tally.runs[i]?.okPerSecond ?? Number.NaN));
  result.measures.push(
    {
      measure: `GET ${READ_PATH}: req/s (${context.connections} connections)`,
      better: 'higher',
      base: base.merged.okPerSecond,
      this: head.merged.okPerSecond,
      baseRounds: perRound(base.s.tally, (r) => r.okPerSecond),
      thisRounds: perRound(head.s.tally, (r) => r.okPerSecond),
    },
    {
      measure: `GET ${READ_PATH}: share of the bare node:http ceiling (${Math.round(ceiling.merged.okPerSecond).toLocaleString('en-US')} req/s, same bytes)`,
      better: 'higher',
      base: base.merged.okPerSecond / ceiling.merged.okPerSecond,
      this: head.merged.okPerSecond / ceiling.merged.okPerSecond,
      baseRounds: ofCeiling(base.s.tally),
      thisRounds: ofCeiling(head.s.tally),
    },
    {
      measure: `GET ${READ_PATH}: CPU µs per answer (server + PostgreSQL; ceiling ${Math.round(ceiling.cpu)})`,
      better: 'lower',
      base: base.cpu,
      this: head.cpu,
      baseRounds: perRound(base.s.tally, (_r, units, seconds) => (seconds / Math.max(1, units)) * 1e6),
      thisRounds: perRound(head.s.tally, (_r, units, seconds) => (seconds / Math.max(1, units)) * 1e6),
    },
    {
      measure: `GET ${READ_PATH}: p99 ms`,
      better: 'lower',
      base: base.merged.p99,
      this: head.merged.p99,
      baseRounds: perRound(base.s.tally, (r) => r.p99),
      thisRounds: perRound(head.s.tally, (r) => r.p99),
    },
  );
  result.checks.push({ what: `GET ${READ_PATH}: bytes of the answer`, base: String(base.s.bytes), this: String(head.s.bytes) });
}

async function compareCheckout(context: BenchContext, baseline: Baseline, rounds: number, result: CompareResult): Promise<void> {
  const pg = [readPostmasterPid(context.pgDataDir)];
  const started: Array<{ server: ChildServer; agent?: { destroy(): void } }> = [];
  const sides = new Map<Side, SideServer & { floor: CheckoutFloor; samples: number[][]; cpu: number[] }>();
  try {
    for (const side of SIDES) {
      const s = await startSide(context, baseline, side, 'checkout');
      const entry: { server: ChildServer; agent?: { destroy(): void } } = { server: s.server };
      started.push(entry);
      context.log(`compare checkout (${side}): three sellers, ten products, one buyer`);
      const floor = await setUpCheckoutFloor(s.server.url, context.cartShapes);
      entry.agent = floor.agent;
      sides.set(side, { ...s, floor, samples: [], cpu: [] });
      await runCheckouts(s.server.url, s.server.pid, pg, floor, 20);
    }
    await inTurns(rounds, async (side, round) => {
      const s = sides.get(side);
      if (!s) return;
      context.log(`compare checkout: round ${round + 1}/${rounds}, ${side}`);
      // Unmeasured, as the orders' re-warm: the connection may have been closed while the other side ran.
      await runCheckouts(s.server.url, s.server.pid, pg, s.floor, 5);
      const times = await runCheckouts(s.server.url, s.server.pid, pg, s.floor, CHECKOUTS_PER_ROUND);
      s.samples.push(times.samples);
      s.cpu.push(((times.serverSeconds + times.databaseSeconds) / times.lines) * 1e6);
      await tidyAfterWrites(s.target);
    });
  } finally {
    for (const entry of started) {
      entry.agent?.destroy();
      await entry.server.stop();
    }
  }
  const get = (side: Side) => sides.get(side) as NonNullable<ReturnType<typeof sides.get>>;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  result.measures.push(
    {
      measure: `Checkout of ${describeCarts(context.cartShapes)}: CPU µs per line (server + PostgreSQL)`,
      better: 'lower',
      base: mean(get('base').cpu),
      this: mean(get('this').cpu),
      baseRounds: get('base').cpu,
      thisRounds: get('this').cpu,
    },
    {
      measure: 'Checkout: p50 ms (one connection)',
      better: 'lower',
      base: summarize(get('base').samples.flat()).p50,
      this: summarize(get('this').samples.flat()).p50,
      baseRounds: get('base').samples.map((s) => summarize(s).p50),
      thisRounds: get('this').samples.map((s) => summarize(s).p50),
    },
  );
  const books = await Promise.all(SIDES.map(async (side) => checkCheckoutBooks(get(side).target, get(side).floor)));
  result.checks.push({
    what: 'Checkout: orders = one per seller of each cart, stock + sold = initial, cart empty',
    base: `${books[0]?.balanced ? 'yes' : '**NO**'} (${books[0]?.orders} orders)`,
    this: `${books[1]?.balanced ? 'yes' : '**NO**'} (${books[1]?.orders} orders)`,
  });
}

export async function compareWithBaseline(context: BenchContext, baseline: Baseline, parts: ComparePart[], rounds: number): Promise<CompareResult> {
  const result: CompareResult = { baseCommit: baseline.shortCommit, rounds, parts, measures: [], checks: [] };
  if (parts.includes('orders')) await compareOrders(context, baseline, rounds, result);
  if (parts.includes('read')) await compareRead(context, baseline, rounds, result);
  if (parts.includes('checkout')) await compareCheckout(context, baseline, rounds, result);
  return result;
}
