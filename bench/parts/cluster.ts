import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { signUp, signUpMany } from '../lib/accounts.ts';
import { withSql } from '../lib/databases.ts';
import { httpRequest, requestJson } from '../lib/http.ts';
import { runLoad, withoutSamples, type LoadResult } from '../lib/load.ts';
import { checkStock, countPlaced, listFloorProducts, orderRequestsFor, settle, type FloorProduct, type StockCheck } from '../lib/order-floor.ts';
import { REPO_ROOT } from '../lib/processes.ts';
import { summarize } from '../lib/stats.ts';
import type { BenchContext } from '../lib/context.ts';
import { FLOOR } from './orders.ts';

const BUYERS = 32;
const SCRIPT = path.join(REPO_ROOT, 'scripts/local-cluster.sh');

export interface ClusterReadRow {
  /** Where the catalog reads went: the streaming replica, or the primary (no DATABASE_READ_URL). */
  reads: 'replica' | 'primary';
  load: LoadResult;
}

export interface ClusterOrderRow {
  /** How the web process reached the primary. */
  via: 'PgBouncer' | 'direct';
  load: LoadResult;
  ordersPerSecond: number;
  /** The replica's lag as /api/health reported it every 100 ms during the run. */
  lagMs: { p50: number; p99: number; max: number; samples: number };
}

export interface ClusterResult {
  reads: ClusterReadRow[];
  orders: ClusterOrderRow[];
  check: StockCheck;
}

/**
 * Part 9: the local cluster of scripts/local-cluster.sh (a primary, a streaming replica, PgBouncer in
 * transaction pooling, web processes, a worker; docs/deploy.md). Catalog reads per second on a web
 * process that reads the replica against one that reads the primary; orders per second through
 * PgBouncer against straight to the primary; and the replica's lag while orders pour in. Everything
 * shares this machine's cores, so the replica adds no capacity here: the figures show what the
 * indirection costs, not what more machines would give.
 */
export async function measureCluster(context: BenchContext): Promise<ClusterResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-bench-cluster-'));
  const env = { PATH: process.env.PATH ?? '', PASSWORD_HASH: 'test-sha256', RATE_LIMIT: 'false', LOG_LEVEL: 'warn' };
  const cli = (...args: string[]) => execFileSync('bash', [SCRIPT, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  try {
    context.log('cluster: starting a primary, a replica, PgBouncer, two web processes and a worker');
    cli('start', dir);
    const urls = Object.fromEntries(
      readFileSync(path.join(dir, 'cluster.env'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    ) as Record<string, string>;
    const pooledReplica = urls.WEB_1_URL!;
    const pooledPrimary = cli('app', dir, 'web-primary-reads', 'web', '--no-replica');
    const direct = cli('app', dir, 'web-direct', 'web', '--direct', '--no-replica');

    context.log(`cluster: signing up ${BUYERS} buyers, listing the floor`);
    const seller = await signUp(pooledReplica, 'Bench Seller', 'seller');
    const buyers = await signUpMany(pooledReplica, BUYERS, 'Buyer');
    const products: FloorProduct[] = await listFloorProducts(pooledReplica, seller, FLOOR);
    // The replica has the floor before anyone reads it there.
    for (let tries = 0; ; tries += 1) {
      const { status } = await httpRequest(`${pooledReplica}/api/product/${products.at(-1)!.id}`);
      if (status === 200) break;
      if (tries > 200) throw new Error('the replica never caught up with the listed products');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const readRequests = (): AutocannonRequest[] => [
      { method: 'GET', path: '/api/allproduct?limit=20' },
      ...products.map((p) => ({ method: 'GET', path: `/api/product/${p.id}` })),
      { method: 'GET', path: '/api/search?q=pallet' },
    ];
    const reads: ClusterReadRow[] = [];
    for (const [label, url] of [
      ['replica', pooledReplica],
      ['primary', pooledPrimary],
    ] as const) {
      context.log(`cluster: catalog reads on the ${label}`);
      await runLoad({ url, connections: context.connections, duration: context.warmup, requestsFor: readRequests });
      reads.push({
        reads: label,
        load: withoutSamples(await runLoad({ url, connections: context.connections, duration: context.duration, requestsFor: readRequests })),
      });
    }

    const orders: ClusterOrderRow[] = [];
    const loads: LoadResult[] = [];
    const floor = orderRequestsFor(buyers, products);
    for (const [via, url] of [
      ['PgBouncer', pooledReplica],
      ['direct', direct],
    ] as const) {
      context.log(`cluster: orders ${via}`);
      loads.push(await runLoad({ url, connections: context.connections, duration: context.warmup, requestsFor: floor }));
      const lags: number[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const { json } = await requestJson<{ databases: { replica?: { lagMs: number | null } } }>(`${pooledReplica}/api/health`);
          const lag = json.databases.replica?.lagMs;
          if (typeof lag === 'number') lags.push(lag);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const load = await runLoad({ url, connections: context.connections, duration: context.duration, requestsFor: floor });
      sampling = false;
      await sampler;
      loads.push(load);
      const lag = summarize(lags);
      orders.push({
        via,
        load: withoutSamples(load),
        ordersPerSecond: (load.statusCounts['201'] ?? 0) / load.durationS,
        lagMs: { p50: lag.p50, p99: lag.p99, max: lags.length > 0 ? Math.max(...lags) : Number.NaN, samples: lags.length },
      });
      await settle();
    }
    const check = await withSql({ kind: 'postgres', url: urls.DATABASE_MIGRATION_URL! }, (query) =>
      checkStock(query, products, countPlaced(loads), 3 * context.connections * loads.length),
    );
    return { reads, orders, check };
  } finally {
    context.log('cluster: stopping every part by its PID');
    cli('stop', dir);
  }
}
