import { signUp, signUpMany } from '../lib/accounts.ts';
import { forEachDatabase, withSql } from '../lib/databases.ts';
import { runLoad, type LoadResult } from '../lib/load.ts';
import { measureCpu, readPostmasterPid } from '../lib/cpu.ts';
import {
  checkStock,
  countPlaced,
  listFloorProducts,
  orderRequestsFor,
  PURCHASE_SERVER_ENV,
  settle,
  type FloorProduct,
  type StockCheck,
} from '../lib/order-floor.ts';
import { startServerProcess, withPeakRss, type DatabaseTarget } from '../lib/processes.ts';
import { monotonicMicros, summarizeCpuProfile, type ProfileSummary } from '../lib/cpu-profile.ts';
import { countOrders, readStatementStats, resetStatementStats, type StatementLine } from '../lib/pg-statements.ts';
import type { BenchContext } from '../lib/context.ts';

export const BUYERS = 64;
export const FLOOR = { roomy: 4, scarce: 1 };

export interface OrdersRow {
  database: string;
  buyers: number;
  products: number;
  load: LoadResult;
  /** Orders placed per second (201 answers only). */
  ordersPerSecond: number;
  check: StockCheck;
  /** Server-side CPU per placed order, µs: our process plus PostgreSQL's, and the two apart. */
  cpuUsPerOrder: number;
  serverCpuUsPerOrder: number;
  databaseCpuUsPerOrder: number;
  restRssMiB: number;
  peakRssMiB: number;
  /** --cpu-prof: where the server's CPU went during the measured run. */
  profile?: ProfileSummary;
  /** --pg-stats (PostgreSQL): what the database ran during the measured run, and per order placed. */
  statements?: StatementLine[];
  /** Orders written while the statements were counted (the measured run, and what it left in flight). */
  ordersCounted?: number;
  /** Round trips (top-level statements) per order written. */
  statementsPerOrder?: number;
}

async function measureOn(context: BenchContext, target: DatabaseTarget, database: string): Promise<OrdersRow> {
  const server = await startServerProcess({ database: target, name: `orders-${database}`, env: PURCHASE_SERVER_ENV });
  let run: {
    products: FloorProduct[];
    warm: LoadResult;
    load: LoadResult;
    cpuSeconds: number;
    serverSeconds: number;
    databaseSeconds: number;
    restRssMiB: number;
    peakRssMiB: number;
  };
  const window = { fromMicros: 0, toMicros: 0 };
  let statements: StatementLine[] | undefined;
  let ordersCounted = 0;
  const pgParents = target.kind === 'postgres' ? [readPostmasterPid(context.pgDataDir)] : [];
  try {
    context.log(`orders ${database}: signing up ${BUYERS} buyers and a seller`);
    const seller = await signUp(server.url, 'Bench Seller', 'seller');
    const buyers = await signUpMany(server.url, BUYERS, 'Buyer');
    const products = await listFloorProducts(server.url, seller, FLOOR);
    const restRssMiB = server.rssMiB();
    const requestsFor = orderRequestsFor(buyers, products);
    context.log(`orders ${database}: ${context.connections} buyers ordering for ${context.duration} s`);
    const warm = await runLoad({ url: server.url, connections: context.connections, duration: context.warmup, requestsFor });
    await settle();
    if (context.hasStatementStats && target.kind === 'postgres') {
      ordersCounted = -(await countOrders(target));
      await resetStatementStats(target);
    }
    window.fromMicros = monotonicMicros();
    const measured = await measureCpu([server.pid], pgParents, () =>
      withPeakRss([server.pid], () => runLoad({ url: server.url, connections: context.connections, duration: context.duration, requestsFor })),
    );
    window.toMicros = monotonicMicros();
    await settle();
    if (context.hasStatementStats && target.kind === 'postgres') {
      statements = await readStatementStats(target);
      ordersCounted += await countOrders(target);
    }
    run = {
      products,
      warm,
      load: measured.result.result,
      cpuSeconds: measured.cpuSeconds,
      serverSeconds: measured.serverSeconds,
      databaseSeconds: measured.databaseSeconds,
      restRssMiB,
      peakRssMiB: measured.result.peakRssMiB[0] ?? Number.NaN,
    };
  } finally {
    // PGlite's folder may be opened by one process at a time: the check reads it after the server stops.
    await server.stop();
  }
  const check = await withSql(target, (query) => checkStock(query, run.products, countPlaced([run.warm, run.load]), 2 * context.connections));
  // Every answer of the run (201s, and the cheaper 409s) shared the CPU; it is charged to the orders placed.
  const placedInRun = Math.max(1, run.load.statusCounts['201'] ?? 0);
  const profile = server.profileFile ? summarizeCpuProfile(server.profileFile, window) : undefined;
  // Every statement of the run, the 409s' included, is charged to the orders it wrote.
  const statementsPerOrder = statements ? statements.filter((s) => s.toplevel).reduce((sum, s) => sum + s.calls, 0) / Math.max(1, ordersCounted) : undefined;
  return {
    database,
    buyers: BUYERS,
    products: run.products.length,
    load: run.load,
    ordersPerSecond: (run.load.statusCounts['201'] ?? 0) / run.load.durationS,
    check,
    cpuUsPerOrder: (run.cpuSeconds / placedInRun) * 1e6,
    serverCpuUsPerOrder: (run.serverSeconds / placedInRun) * 1e6,
    databaseCpuUsPerOrder: (run.databaseSeconds / placedInRun) * 1e6,
    restRssMiB: run.restRssMiB,
    peakRssMiB: run.peakRssMiB,
    ...(profile ? { profile } : {}),
    ...(statements ? { statements, statementsPerOrder, ordersCounted } : {}),
  };
}

/** Part 2: concurrent signed-in buyers placing orders; then the stock books must balance. */
export async function measureOrders(context: BenchContext): Promise<OrdersRow[]> {
  return forEachDatabase(context, 'orders', (target, database) => measureOn(context, target, database));
}
