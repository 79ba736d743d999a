/**
 * `npm run bench:refusals`: what a sold-out product costs while buyers keep asking for it (a flash
 * sale's tail). 64 buyers, each request with a new Idempotency-Key (the Buy Now benchmark's requests,
 * bench/lib/order-floor.ts), on one product of the compiled
 * server on a throwaway PostgreSQL cluster: the product is sold out by a warm-up run, then each
 * measured round prints the answers, the CPU per refusal (server and PostgreSQL) and refusals/s.
 *
 *   npm run bench:refusals -- [--rounds=5] [--duration=6] [--connections=64]
 *
 * Compare two versions by running it on each in turns (the machine's speed moves within the hour).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres.ts';
import { signUp, signUpMany } from './lib/accounts.ts';
import { measureCpu, readPostmasterPid } from './lib/cpu.ts';
import { createPostgresDatabase } from './lib/databases.ts';
import { runLoad } from './lib/load.ts';
import { listFloorProducts, orderRequestsFor, PURCHASE_SERVER_ENV, settle } from './lib/order-floor.ts';
import { startServerProcess } from './lib/processes.ts';
import { median } from './web/summary.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, duration: { type: 'string', default: '6' }, connections: { type: 'string', default: '64' } },
});
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const connections = Number(values.connections);
const WARM_UP_S = 4;

const cluster = await startThrowawayPostgres();
const server = await startServerProcess({ database: await createPostgresDatabase(cluster.url, 'refusals'), name: 'refusals', env: PURCHASE_SERVER_ENV });
try {
  const seller = await signUp(server.url, 'Bench Seller', 'seller');
  const buyers = await signUpMany(server.url, connections, 'Buyer');
  const [product] = await listFloorProducts(server.url, seller, { roomy: 0, scarce: 1 });
  if (!product) throw new Error('no product listed');
  const requestsFor = orderRequestsFor(buyers, [product]);
  const warm = await runLoad({ url: server.url, connections, duration: WARM_UP_S, requestsFor });
  console.log(`load ${loadavg()[0]!.toFixed(1)}; warm-up ${WARM_UP_S} s: ${JSON.stringify(warm.statusCounts)} (the product sold out)`);
  console.log('| round | answers | CPU µs per refusal (server + PostgreSQL) | refusals/s |\n|---|---|---|---|');
  const perRefusal: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    await settle();
    const measured = await measureCpu([server.pid], [readPostmasterPid(cluster.dataDir)], () =>
      runLoad({ url: server.url, connections, duration, requestsFor }),
    );
    const refusals = measured.result.statusCounts['409'] ?? 0;
    const micros = (seconds: number) => Math.round((seconds / Math.max(1, refusals)) * 1e6);
    perRefusal.push(micros(measured.cpuSeconds));
    console.log(
      `| ${round} | ${JSON.stringify(measured.result.statusCounts)} | ${micros(measured.cpuSeconds)} (${micros(measured.serverSeconds)} + ${micros(measured.databaseSeconds)}) | ${Math.round(refusals / measured.result.durationS)} |`,
    );
  }
  console.log(`median CPU per refusal: ${median(perRefusal)} µs; load ${loadavg()[0]!.toFixed(1)}`);
} finally {
  await server.stop();
  cluster.stop();
}
