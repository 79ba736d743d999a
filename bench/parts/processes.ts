import { signUp, signUpMany } from '../lib/accounts.ts';
import { createPostgresDatabase, withSql } from '../lib/databases.ts';
import { mergeLoads, runLoad, runLoadsTogether, withoutSamples, type LoadResult } from '../lib/load.ts';
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
import { startServerProcess, withPeakRss, type ChildServer } from '../lib/processes.ts';
import type { BenchContext } from '../lib/context.ts';
import { BUYERS, FLOOR } from './orders.ts';

export interface ProcessesRow {
  processes: number;
  loads: LoadResult[];
  ordersPerSecond: number;
  p50: number;
  p99: number;
  /** Server-side CPU per placed order, µs: the server processes plus PostgreSQL's. */
  cpuUsPerOrder: number;
  peakRssMiB: number[];
}

export interface ProcessesResult {
  rows: ProcessesRow[];
  check: StockCheck;
  restRssMiB: number[];
}

function combine(processes: number, loads: LoadResult[], peakRssMiB: number[], cpuSeconds: number): ProcessesRow {
  const placed = loads.reduce((sum, l) => sum + (l.statusCounts['201'] ?? 0), 0);
  const duration = Math.max(...loads.map((l) => l.durationS));
  const merged = mergeLoads(loads);
  return {
    processes,
    loads: loads.map(withoutSamples),
    ordersPerSecond: placed / duration,
    p50: merged.p50,
    p99: merged.p99,
    cpuUsPerOrder: (cpuSeconds / Math.max(1, placed)) * 1e6,
    peakRssMiB,
  };
}

/**
 * Part 4: two server processes on one PostgreSQL, both selling the same products at once. First one
 * process takes all the connections, then both take half each; each phase has its own scarce product,
 * so the second one is sold out by two processes racing each other.
 */
export async function measureProcesses(context: BenchContext): Promise<ProcessesResult> {
  const target = await createPostgresDatabase(context.pgAdminUrl, 'processes');
  const servers: ChildServer[] = [];
  const loads: LoadResult[] = [];
  const allProducts: FloorProduct[] = [];
  let rows: ProcessesRow[];
  let restRssMiB: number[];
  try {
    servers.push(await startServerProcess({ database: target, name: 'processes-a', env: PURCHASE_SERVER_ENV }));
    servers.push(await startServerProcess({ database: target, name: 'processes-b', env: PURCHASE_SERVER_ENV }));
    const [a, b] = servers as [ChildServer, ChildServer];
    context.log(`processes: signing up ${BUYERS} buyers`);
    const seller = await signUp(a.url, 'Bench Seller', 'seller');
    const buyers = await signUpMany(a.url, BUYERS, 'Buyer');
    const roomy = await listFloorProducts(a.url, seller, { roomy: FLOOR.roomy, scarce: 0 });
    const scarceOne = await listFloorProducts(a.url, seller, { roomy: 0, scarce: 1 });
    const scarceTwo = await listFloorProducts(b.url, seller, { roomy: 0, scarce: 1 });
    allProducts.push(...roomy, ...scarceOne, ...scarceTwo);
    restRssMiB = servers.map((s) => s.rssMiB());

    const oneFloor = orderRequestsFor(buyers, [...roomy, ...scarceOne]);
    const twoFloor = orderRequestsFor(buyers, [...roomy, ...scarceTwo]);
    const half = Math.floor(context.connections / 2);
    // Buyers 0–31 go to process A and 32–63 to B: the same accounts, the same products.
    const secondHalf = (i: number) => twoFloor(i + half);

    context.log('processes: warm-up of both');
    const warmFloor = orderRequestsFor(buyers, roomy);
    loads.push(
      ...(await runLoadsTogether([
        { url: a.url, connections: half, duration: context.warmup, requestsFor: warmFloor },
        { url: b.url, connections: half, duration: context.warmup, requestsFor: (i) => warmFloor(i + half) },
      ])),
    );
    await settle();
    const pgParents = [readPostmasterPid(context.pgDataDir)];
    const pids = [a.pid, b.pid];
    context.log(`processes: one process, ${context.connections} connections`);
    const one = await measureCpu(pids, pgParents, () =>
      withPeakRss([a.pid], () => runLoad({ url: a.url, connections: context.connections, duration: context.duration, requestsFor: oneFloor })),
    );
    loads.push(one.result.result);
    await settle();
    context.log(`processes: two processes, ${half} connections each`);
    const two = await measureCpu(pids, pgParents, () =>
      withPeakRss(pids, () =>
        runLoadsTogether([
          { url: a.url, connections: half, duration: context.duration, requestsFor: twoFloor },
          { url: b.url, connections: half, duration: context.duration, requestsFor: secondHalf },
        ]),
      ),
    );
    loads.push(...two.result.result);
    await settle();
    rows = [combine(1, [one.result.result], one.result.peakRssMiB, one.cpuSeconds), combine(2, two.result.result, two.result.peakRssMiB, two.cpuSeconds)];
  } finally {
    for (const server of servers) await server.stop();
  }
  const check = await withSql(target, (query) => checkStock(query, allProducts, countPlaced(loads), 3 * context.connections));
  return { rows, check, restRssMiB };
}
