import { setTimeout as sleep } from 'node:timers/promises';
import { signUp, signUpMany } from '../lib/accounts.ts';
import { createPostgresDatabase } from '../lib/databases.ts';
import { runLoad, type LoadResult } from '../lib/load.ts';
import { measureCpu, readPostmasterPid } from '../lib/cpu.ts';
import { listFloorProducts, orderRequestsFor, PURCHASE_SERVER_ENV } from '../lib/order-floor.ts';
import { startServerProcess, type ChildServer } from '../lib/processes.ts';
import type { BenchContext } from '../lib/context.ts';
import { BUYERS, FLOOR } from './orders.ts';

/** The pool's idle timeouts compared: node-postgres's own and the server's default (DB_POOL_IDLE_MS). */
const SETTINGS = [
  { label: 'DB_POOL_IDLE_MS=10000 (node-postgres default)', idleMs: 10_000 },
  { label: 'DB_POOL_IDLE_MS=60000 (the default)', idleMs: 60_000 },
] as const;
/** Quiet before each measured burst: longer than the shorter timeout, shorter than the longer. */
const LULL_SECONDS = 15;
/** The burst measured after the lull: the seconds a new connection's first statements fall in. */
const BURST_SECONDS = 3;

export interface LullSide {
  setting: string;
  idleMs: number;
  /** CPU µs per order placed (server + PostgreSQL), each round's burst. */
  cpuUsPerOrderByRound: number[];
  p99MsByRound: number[];
  cpuUsPerOrder: number;
  ordersPlaced: number;
}

export interface LullRow {
  lullSeconds: number;
  burstSeconds: number;
  rounds: number;
  sides: LullSide[];
}

interface Floor {
  server: ChildServer;
  requestsFor: ReturnType<typeof orderRequestsFor>;
}

async function openFloor(context: BenchContext, idleMs: number): Promise<Floor> {
  const target = await createPostgresDatabase(context.pgAdminUrl, `lull-${idleMs}`);
  const server = await startServerProcess({ database: target, name: `lull-${idleMs}`, env: { ...PURCHASE_SERVER_ENV, DB_POOL_IDLE_MS: String(idleMs) } });
  const seller = await signUp(server.url, 'Bench Seller', 'seller');
  const buyers = await signUpMany(server.url, BUYERS, 'Buyer');
  const products = await listFloorProducts(server.url, seller, FLOOR);
  return { server, requestsFor: orderRequestsFor(buyers, products) };
}

/**
 * Buy Now after a lull (PostgreSQL, 64 buyers): two servers of this checkout, one per pool idle
 * timeout, each warmed, then in every round both left quiet for LULL_SECONDS and each loaded for
 * BURST_SECONDS in turns (the first side alternates). What a burst after a lull costs per order shows
 * what keeping connections open spares: a new connection parses and plans its prepared statements again.
 */
export async function measureLull(context: BenchContext, rounds: number): Promise<LullRow> {
  const pgParents = [readPostmasterPid(context.pgDataDir)];
  const floors: Floor[] = [];
  try {
    for (const setting of SETTINGS) floors.push(await openFloor(context, setting.idleMs));
    for (const floor of floors)
      await runLoad({ url: floor.server.url, connections: context.connections, duration: context.warmup, requestsFor: floor.requestsFor });
    const bursts: Array<Array<{ cpuSeconds: number; load: LoadResult }>> = floors.map(() => []);
    for (let round = 0; round < rounds; round++) {
      context.log(`lull: round ${round + 1}/${rounds}, ${LULL_SECONDS} s quiet`);
      await sleep(LULL_SECONDS * 1000);
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const side of order) {
        const floor = floors[side]!;
        const measured = await measureCpu([floor.server.pid], pgParents, () =>
          runLoad({ url: floor.server.url, connections: context.connections, duration: BURST_SECONDS, requestsFor: floor.requestsFor }),
        );
        bursts[side]!.push({ cpuSeconds: measured.cpuSeconds, load: measured.result });
      }
    }
    return {
      lullSeconds: LULL_SECONDS,
      burstSeconds: BURST_SECONDS,
      rounds,
      sides: SETTINGS.map((setting, side) => {
        const runs = bursts[side]!;
        const placed = (load: LoadResult) => Math.max(1, load.statusCounts['201'] ?? 0);
        const ordersPlaced = runs.reduce((sum, run) => sum + (run.load.statusCounts['201'] ?? 0), 0);
        const cpuSeconds = runs.reduce((sum, run) => sum + run.cpuSeconds, 0);
        return {
          setting: setting.label,
          idleMs: setting.idleMs,
          cpuUsPerOrderByRound: runs.map((run) => (run.cpuSeconds / placed(run.load)) * 1e6),
          p99MsByRound: runs.map((run) => run.load.p99),
          cpuUsPerOrder: (cpuSeconds / Math.max(1, ordersPlaced)) * 1e6,
          ordersPlaced,
        };
      }),
    };
  } finally {
    for (const floor of floors) await floor.server.stop();
  }
}
