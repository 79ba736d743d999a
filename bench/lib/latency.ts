import http from 'node:http';
import { httpRequest } from './http.ts';
import { summarize } from './stats.ts';

export interface LatencyResult {
  requests: number;
  p50: number;
  p99: number;
  mean: number;
}

/**
 * Server time as one client sees it: `count` requests one after another on one keep-alive
 * connection, after `warmup` unrecorded ones. Every answer must be a 200. `url` may differ per
 * request (the i-th, warm-up included), e.g. to keep a server's answer cache from answering.
 */
export async function measureSequential(
  url: string | ((i: number) => string),
  headers: Record<string, string>,
  count: number,
  warmup: number,
): Promise<LatencyResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  try {
    for (let i = 0; i < warmup + count; i++) {
      const target = typeof url === 'string' ? url : url(i);
      const started = process.hrtime.bigint();
      const answer = await httpRequest(target, { headers, agent });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (answer.status !== 200) throw new Error(`GET ${target} → ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`);
      if (i >= warmup) samples.push(ms);
    }
  } finally {
    agent.destroy();
  }
  return { requests: samples.length, ...summarize(samples) };
}
