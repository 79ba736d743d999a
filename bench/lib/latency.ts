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
 * connection, after `warmup` unrecorded ones. Every answer must be a 200.
 */
export async function measureSequential(url: string, headers: Record<string, string>, count: number, warmup: number): Promise<LatencyResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  try {
    for (let i = 0; i < warmup + count; i++) {
      const started = process.hrtime.bigint();
      const answer = await httpRequest(url, { headers, agent });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (answer.status !== 200) throw new Error(`GET ${url} → ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`);
      if (i >= warmup) samples.push(ms);
    }
  } finally {
    agent.destroy();
  }
  return { requests: samples.length, ...summarize(samples) };
}
