/**
 * `npm run bench:api`: load and scale benchmarks of the API (docs/benchmarks.md). Every server under test is its
 * own child process on 127.0.0.1; every load run is bounded in time; everything started is stopped by
 * PID. Prints a Markdown report (pasted into docs/benchmarks-history.md; the current figures in docs/benchmarks.md) and writes it, with the raw JSON,
 * to a temp folder.
 *
 *   npm run bench:api -- [--parts=read,orders,scale,processes,search,checkout,imports,cluster,lull] [--duration=10] [--warmup=3]
 *                        [--import-cases=10000x500,100000x500,100000x1] (catalog import: rows x brands)
 *                        [--connections=64] [--databases=pglite,postgres] [--sizes=1000,100000]
 *                        [--server-root=/another/checkout]   (measure that checkout's server instead)
 *                        [--search-compare-root=/another/checkout]   (search: that checkout's server, line by line, before this one's)
 *                        [--cpu-prof=DIR]   (profile every server; the orders part says where its CPU went)
 *                        [--pg-stats]       (load pg_stat_statements; the orders part counts statements per order)
 *                        [--cart-shapes=fixed|varied]   (checkout: the same ten lines every round, or 28 cart shapes in turn)
 *   npm run bench:api -- --compare=<commit> [--parts=orders,read,checkout] [--rounds=3]
 *                        (that commit's server and this checkout's in turns, on PostgreSQL, with ratios)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres.ts';
import type { BenchContext } from './lib/context.ts';
import { describeMachine } from './lib/machine.ts';
import { killLiveChildren, useCpuProfiles, useServerRoot } from './lib/processes.ts';
import { renderReport, type Report } from './lib/report.ts';
import { measureReadCeiling } from './parts/read-ceiling.ts';
import { measureOrders } from './parts/orders.ts';
import { measureCatalogScale } from './parts/catalog-scale.ts';
import { measureProcesses } from './parts/processes.ts';
import { measureSearch } from './parts/search.ts';
import { measureCheckout, type CartShapes } from './parts/checkout.ts';
import { measureCatalogImport, parseImportCases } from './parts/catalog-import.ts';
import { measureCluster } from './parts/cluster.ts';
import { measureLull } from './parts/lull.ts';
import { COMPARE_PARTS, compareWithBaseline, type ComparePart } from './parts/compare.ts';
import { prepareBaseline } from './lib/baseline.ts';

const PARTS = ['read', 'orders', 'scale', 'processes', 'search', 'checkout', 'imports', 'cluster', 'lull'] as const;
type Part = (typeof PARTS)[number];

function parseOptions() {
  const { values } = parseArgs({
    options: {
      parts: { type: 'string' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '64' },
      databases: { type: 'string', default: 'pglite,postgres' },
      sizes: { type: 'string', default: '1000,100000' },
      'search-size': { type: 'string', default: '100000' },
      'import-cases': { type: 'string', default: '10000x500,100000x500,100000x1' },
      'search-compare-root': { type: 'string' },
      'server-root': { type: 'string' },
      'cpu-prof': { type: 'string' },
      'pg-stats': { type: 'boolean', default: false },
      'cart-shapes': { type: 'string', default: 'fixed' },
      compare: { type: 'string' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const known: readonly string[] = values.compare ? COMPARE_PARTS : PARTS;
  const parts = (values.parts ?? known.join(',')).split(',').map((p) => p.trim());
  for (const part of parts)
    if (!known.includes(part)) throw new Error(`unknown part "${part}" (known${values.compare ? ' with --compare' : ''}: ${known.join(', ')})`);
  const cartShapes = values['cart-shapes'];
  if (cartShapes !== 'fixed' && cartShapes !== 'varied') throw new Error(`--cart-shapes is fixed or varied, not "${cartShapes}"`);
  const databases = values.databases.split(',').map((d) => d.trim());
  for (const d of databases) if (d !== 'pglite' && d !== 'postgres') throw new Error(`unknown database "${d}"`);
  return {
    parts: parts as Part[],
    compare: values.compare,
    rounds: Number(values.rounds),
    duration: Number(values.duration),
    warmup: Number(values.warmup),
    connections: Number(values.connections),
    databases: databases as Array<'pglite' | 'postgres'>,
    sizes: values.sizes.split(',').map(Number),
    searchSize: Number(values['search-size']),
    importCases: parseImportCases(values['import-cases']),
    searchCompareRoot: values['search-compare-root'],
    serverRoot: values['server-root'],
    cpuProfileDir: values['cpu-prof'],
    pgStats: values['pg-stats'],
    cartShapes: cartShapes as CartShapes,
  };
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options.serverRoot) useServerRoot(options.serverRoot);
  if (options.cpuProfileDir) {
    mkdirSync(options.cpuProfileDir, { recursive: true });
    useCpuProfiles(path.resolve(options.cpuProfileDir));
  }
  const cluster = await startThrowawayPostgres({ statStatements: options.pgStats });
  const started = Date.now();
  const log = (message: string) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);
  const context: BenchContext = {
    duration: options.duration,
    warmup: options.warmup,
    connections: options.connections,
    pgAdminUrl: cluster.url,
    pgDataDir: cluster.dataDir,
    databases: options.databases,
    isProfiling: options.cpuProfileDir !== undefined,
    hasStatementStats: options.pgStats,
    cartShapes: options.cartShapes,
    log,
  };
  const report: Report = { machine: describeMachine('before'), options };
  const stopOnSignal = () => {
    killLiveChildren();
    cluster.stop();
    process.exit(130);
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    if (options.compare) {
      const baseline = prepareBaseline(options.compare, log);
      report.compare = await compareWithBaseline(context, baseline, options.parts as ComparePart[], options.rounds);
    } else {
      await runParts();
    }
  } finally {
    cluster.stop();
  }
  async function runParts(): Promise<void> {
    if (options.parts.includes('read')) report.read = await measureReadCeiling(context);
    if (options.parts.includes('orders')) report.orders = await measureOrders(context);
    if (options.parts.includes('scale')) report.scale = await measureCatalogScale(context, options.sizes);
    if (options.parts.includes('processes')) report.processes = await measureProcesses(context);
    if (options.parts.includes('search')) report.search = await measureSearch(context, options.searchSize, options.searchCompareRoot);
    if (options.parts.includes('checkout')) report.checkout = await measureCheckout(context);
    if (options.parts.includes('imports')) report.imports = await measureCatalogImport(context, options.importCases);
    if (options.parts.includes('cluster')) report.cluster = await measureCluster(context);
    if (options.parts.includes('lull')) report.lull = await measureLull(context, options.rounds);
  }
  report.machineAfter = describeMachine('after');
  const markdown = renderReport(report);
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-bench-api-'));
  writeFileSync(path.join(folder, 'report.md'), markdown);
  writeFileSync(
    path.join(folder, 'report.json'),
    JSON.stringify(report, (key, value: unknown) => (key === 'samples' ? undefined : value), 2),
  );
  process.stdout.write(markdown);
  log(`report written to ${folder}/report.md and report.json`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
