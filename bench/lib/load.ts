import autocannon, { type AutocannonClient, type AutocannonRequest } from 'autocannon';
import { summarize } from './stats.ts';

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds; every run stops by itself. */
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Per-connection request set-up (distinct buyers, random products, fresh idempotency keys). */
  requestsFor?: (connectionIndex: number) => AutocannonRequest[];
}

export interface LoadResult {
  durationS: number;
  responses: number;
  ok: number;
  okPerSecond: number;
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Latency of 2xx/3xx answers, ms, from each response (not autocannon's whole-ms histogram). */
  p50: number;
  p99: number;
  mean: number;
  /** Raw 2xx/3xx latencies, kept only to merge runs; dropped from reports. */
  samples?: number[];
}

/** One bounded autocannon run on loopback. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const okLatencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  let next = 0;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    timeout: 30,
    // autocannon copies keys even when undefined, which would wipe its own defaults.
    ...(options.method ? { method: options.method } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.body ? { body: options.body } : {}),
    setupClient: options.requestsFor
      ? (client: AutocannonClient) => {
          client.setRequests((options.requestsFor as (i: number) => AutocannonRequest[])(next++));
        }
      : undefined,
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    if (statusCode < 400) okLatencies.push(responseTime);
  });
  const result = await instance;
  const responses = Object.values(statusCounts).reduce((a, b) => a + b, 0);
  const ok = okLatencies.length;
  return {
    durationS: result.duration,
    responses,
    ok,
    okPerSecond: ok / result.duration,
    statusCounts,
    errors: result.errors,
    timeouts: result.timeouts,
    ...summarize(okLatencies),
    samples: okLatencies,
  };
}

/** Several runs of the same thing as one (alternating rounds), percentiles over every sample. */
export function mergeLoads(results: LoadResult[]): LoadResult {
  const samples = results.flatMap((r) => r.samples ?? []);
  const statusCounts: Record<string, number> = {};
  for (const r of results) for (const [code, n] of Object.entries(r.statusCounts)) statusCounts[code] = (statusCounts[code] ?? 0) + n;
  const durationS = results.reduce((s, r) => s + r.durationS, 0);
  const ok = results.reduce((s, r) => s + r.ok, 0);
  return {
    durationS,
    responses: results.reduce((s, r) => s + r.responses, 0),
    ok,
    okPerSecond: ok / durationS,
    statusCounts,
    errors: results.reduce((s, r) => s + r.errors, 0),
    timeouts: results.reduce((s, r) => s + r.timeouts, 0),
    ...summarize(samples),
    samples,
  };
}

/** A result without its raw samples, for the report. */
export function withoutSamples(result: LoadResult): LoadResult {
  const { samples: _samples, ...rest } = result;
  return rest;
}

/** Several runs at once (e.g. one per server process); results in the same order. */
export function runLoadsTogether(runs: LoadOptions[]): Promise<LoadResult[]> {
  return Promise.all(runs.map(runLoad));
}
