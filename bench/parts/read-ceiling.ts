import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { measureCpu, readPostmasterPid } from '../lib/cpu.ts';
import { createPgliteFolder, createPostgresDatabase } from '../lib/databases.ts';
import { httpRequest } from '../lib/http.ts';
import { mergeLoads, runLoad, withoutSamples, type LoadResult } from '../lib/load.ts';
import { startCeilingServer, startServerProcess, withPeakRss, type ChildServer, type DatabaseTarget } from '../lib/processes.ts';
import { DATABASE_LABEL, type BenchContext } from '../lib/context.ts';
import { monotonicMicros, summarizeCpuProfile, type ProfileSummary, type ProfileWindow } from '../lib/cpu-profile.ts';

/** Ceiling and ours take turns, so a change in what else runs on the machine hits both alike. */
const ROUNDS = 2;

export interface ReadRow {
  database: string;
  endpoint: string;
  bytes: number;
  ceiling: LoadResult;
  ours: LoadResult;
  /** ours ÷ ceiling, in req/s. */
  ratio: number;
  /** Server-side CPU per answer, µs: the ceiling process; our process plus PostgreSQL's. */
  ceilingCpuUs: number;
  oursCpuUs: number;
  restRssMiB: number;
  peakRssMiB: number;
  /** --cpu-prof: where our server's CPU went while it answered this endpoint. */
  profile?: ProfileSummary;
}

interface Endpoint {
  label: string;
  /** The path whose exact bytes the ceiling serves. */
  path: string;
  /** What our server is sent, when it differs from `path` (several ids, a revalidating client). */
  requests?: AutocannonRequest[];
  headers?: Record<string, string>;
}

function loadOptions(context: BenchContext, url: string, endpoint: Endpoint, duration: number) {
  return {
    url: `${url}${endpoint.path}`,
    connections: context.connections,
    duration,
    headers: endpoint.headers,
    requestsFor: endpoint.requests ? () => (endpoint.requests as AutocannonRequest[]).map((r) => ({ ...r })) : undefined,
  };
}

async function endpointsOf(server: ChildServer): Promise<Endpoint[]> {
  const page = JSON.parse((await httpRequest(`${server.url}/api/allproduct?limit=48`)).body.toString('utf8')) as Array<{ _id: string }>;
  const first = page[0]?._id;
  if (!first) throw new Error('the demo catalog is empty');
  const endpoints: Endpoint[] = [
    { label: 'GET /api/allproduct?limit=48', path: '/api/allproduct?limit=48' },
    { label: 'GET /api/topproduct', path: '/api/topproduct' },
    { label: 'GET /api/product/{id}', path: `/api/product/${first}` },
    {
      // A hot single URL is the kindest case for any sharing of work; 48 different products is harder.
      label: 'GET /api/product/{id}, 48 different ids',
      path: `/api/product/${first}`,
      requests: page.map((p) => ({ method: 'GET', path: `/api/product/${p._id}` })),
    },
  ];
  // What a browser sends: the ceiling then answers our compressed bytes, with their content-encoding.
  endpoints.push({
    label: 'GET /api/allproduct?limit=48, accept-encoding br (browser-like)',
    path: '/api/allproduct?limit=48',
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  });
  const answer = await httpRequest(`${server.url}/api/allproduct?limit=48`);
  const etag = answer.headers.etag;
  if (typeof etag === 'string') {
    endpoints.push({
      label: 'GET /api/allproduct?limit=48, revalidating (If-None-Match → 304)',
      path: '/api/allproduct?limit=48',
      headers: { 'if-none-match': etag },
    });
  }
  return endpoints;
}

async function measureEndpoint(
  context: BenchContext,
  server: ChildServer,
  endpoint: Endpoint,
  scratch: string,
  pgParents: number[],
): Promise<Omit<ReadRow, 'database' | 'restRssMiB' | 'profile'> & { windows: ProfileWindow[] }> {
  // The ceiling copies the 200 answer our server gives this client (compressed, if it asks for that).
  const { 'if-none-match': _conditional, ...asked } = endpoint.headers ?? {};
  const sample = await httpRequest(`${server.url}${endpoint.path}`, { headers: asked });
  if (sample.status !== 200) throw new Error(`${endpoint.path} → ${sample.status}`);
  const bodyFile = path.join(scratch, 'body');
  writeFileSync(bodyFile, sample.body);
  const encoding = sample.headers['content-encoding'];
  const ceilingServer = await startCeilingServer(bodyFile, String(sample.headers['content-type']), typeof encoding === 'string' ? encoding : undefined);
  const ceilingRuns: LoadResult[] = [];
  const ourRuns: LoadResult[] = [];
  let ceilingCpu = 0;
  let ourCpu = 0;
  let peakRssMiB = Number.NaN;
  const windows: ProfileWindow[] = [];
  try {
    // The ceiling always answers the exact bytes of `path`, whatever our client sends.
    const ceilingEndpoint = { label: endpoint.label, path: endpoint.path };
    context.log(`read: ${endpoint.label}`);
    await runLoad(loadOptions(context, ceilingServer.url, ceilingEndpoint, context.warmup));
    await runLoad(loadOptions(context, server.url, endpoint, context.warmup));
    const slice = context.duration / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      const ceiling = await measureCpu([ceilingServer.pid], [], () => runLoad(loadOptions(context, ceilingServer.url, ceilingEndpoint, slice)));
      ceilingRuns.push(ceiling.result);
      ceilingCpu += ceiling.cpuSeconds;
      const fromMicros = monotonicMicros();
      const ours = await measureCpu([server.pid], pgParents, () => withPeakRss([server.pid], () => runLoad(loadOptions(context, server.url, endpoint, slice))));
      windows.push({ fromMicros, toMicros: monotonicMicros() });
      ourRuns.push(ours.result.result);
      ourCpu += ours.cpuSeconds;
      peakRssMiB = Math.max(ours.result.peakRssMiB[0] ?? 0, Number.isNaN(peakRssMiB) ? 0 : peakRssMiB);
    }
  } finally {
    await ceilingServer.stop();
  }
  const ceiling = mergeLoads(ceilingRuns);
  const ours = mergeLoads(ourRuns);
  return {
    endpoint: endpoint.label,
    bytes: sample.body.length,
    ceiling: withoutSamples(ceiling),
    ours: withoutSamples(ours),
    ratio: ours.okPerSecond / ceiling.okPerSecond,
    ceilingCpuUs: (ceilingCpu / ceiling.responses) * 1e6,
    oursCpuUs: (ourCpu / ours.responses) * 1e6,
    peakRssMiB,
    windows,
  };
}

async function measureOn(context: BenchContext, target: DatabaseTarget, database: string): Promise<ReadRow[]> {
  // Rate limits on, as in production: reads are not limited, but their hooks run on every request.
  const server = await startServerProcess({ database: target, seedDemo: true, name: `read-${database}`, env: { RATE_LIMIT: 'true' } });
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-ceiling-'));
  const pgParents = target.kind === 'postgres' ? [readPostmasterPid(context.pgDataDir)] : [];
  const rows: Array<ReadRow & { windows: ProfileWindow[] }> = [];
  try {
    const restRssMiB = server.rssMiB();
    for (const endpoint of await endpointsOf(server)) {
      rows.push({ database, restRssMiB, ...(await measureEndpoint(context, server, endpoint, scratch, pgParents)) });
    }
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  return rows.map(({ windows, ...row }) => (server.profileFile ? { ...row, profile: summarizeCpuProfile(server.profileFile, windows) } : row));
}

/** Part 1: our public reads beside a bare node:http server answering the same bytes. */
export async function measureReadCeiling(context: BenchContext): Promise<ReadRow[]> {
  const rows: ReadRow[] = [];
  for (const kind of context.databases) {
    if (kind === 'pglite') {
      const folder = createPgliteFolder();
      try {
        rows.push(...(await measureOn(context, folder.target, DATABASE_LABEL.pglite)));
      } finally {
        folder.remove();
      }
    } else {
      rows.push(...(await measureOn(context, await createPostgresDatabase(context.pgAdminUrl, 'read'), DATABASE_LABEL.postgres)));
    }
  }
  return rows;
}
