import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../../../scripts/server-node-flags.ts';
import { freePort } from '../../../../scripts/throwaway-postgres.ts';

/**
 * docs/decisions/010-production-runtime.md: `npm start` as a process manager runs it. The signal goes to the process the
 * manager started (npm), never to a child picked by hand; everything must be gone within 10 s.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const STOP_DEADLINE_MS = 10_000;

interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  command: string;
}

/** Every process on the machine, from /proc (ps may be absent on a slim image). */
function listProcesses(): ProcessInfo[] {
  const all: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and brackets: the fields that follow start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      all.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), command });
    } catch {
      // Gone while being read.
    }
  }
  return all;
}

function descendantsOf(pid: number): ProcessInfo[] {
  const all = listProcesses();
  const found: ProcessInfo[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const children = all.filter((p) => frontier.includes(p.ppid));
    found.push(...children);
    frontier = children.map((p) => p.pid);
  }
  return found;
}

/** Anything left of the process group `npm start` led, reparented or not. */
function leftoversOf(groupId: number): ProcessInfo[] {
  return listProcesses().filter((p) => p.pgid === groupId);
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

interface Started {
  npm: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Started[] = [];
const dataDirs: string[] = [];

afterEach(() => {
  for (const { npm } of started.splice(0)) {
    // A failed test must not leave a server behind: the whole group, by its id.
    if (npm.pid && leftoversOf(npm.pid).length > 0) process.kill(-npm.pid, 'SIGKILL');
  }
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function npmStart(): Promise<Started> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-npm-start-'));
  dataDirs.push(dataDir);
  // Its own process group, as under a process manager, so leftovers can be found by group.
  const npm = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      RATE_LIMIT: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout?.on('data', (d) => (output += d));
  npm.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const run: Started = { npm, port, output: () => output, exited };
  started.push(run);
  const since = Date.now();
  // A stale build is rebuilt first (the web app takes a minute on a busy machine).
  while (!/is listening on/.test(output)) {
    if (npm.exitCode !== null || npm.signalCode !== null) throw new Error(`npm start exited before listening:\n${output}`);
    if (Date.now() - since > 240_000) throw new Error(`npm start did not listen within 240 s:\n${output}`);
    await sleep(100);
  }
  return run;
}

/** A sign-in whose body arrives in two parts: the server has begun it before `finish` is called. */
function slowRequest(port: number): { finish: () => void; answer: Promise<number> } {
  const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-a-real-password' });
  const half = Math.floor(body.length / 2);
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/auth/sign-in/email',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), origin: `http://127.0.0.1:${port}` },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
  req.write(body.slice(0, half));
  return { finish: () => req.end(body.slice(half)), answer };
}

async function expectAllGoneWithin(run: Started, ms: number): Promise<void> {
  const groupId = run.npm.pid as number;
  const since = Date.now();
  while (Date.now() - since < ms) {
    if (leftoversOf(groupId).length === 0 && (await isPortFree(run.port))) return;
    await sleep(100);
  }
  expect({ leftovers: leftoversOf(groupId), portFree: await isPortFree(run.port) }).toEqual({ leftovers: [], portFree: true });
}

describe('npm start under a process manager', () => {
  it('runs the compiled server as plain node, with no shell, TypeScript loader or esbuild beside it', async () => {
    const run = await npmStart();
    const tree = descendantsOf(run.npm.pid as number);
    expect(tree.map((p) => p.command)).toEqual([['node', ...SERVER_NODE_FLAGS, 'apps/server/dist/server.js'].join(' ')]);
    run.npm.kill('SIGTERM');
    await expectAllGoneWithin(run, STOP_DEADLINE_MS);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm's process frees the port and leaves no process within 10 s, finishing a request in flight`, async () => {
      const run = await npmStart();
      const inFlight = slowRequest(run.port);
      // Let the server read the headers, so the request is in its hands when the signal comes.
      await sleep(300);
      const signalledAt = Date.now();
      run.npm.kill(signal);
      await sleep(500);
      inFlight.finish();
      // No such account: the server answered the request it had begun, rather than dropping it.
      expect(await inFlight.answer).toBe(401);
      await expectAllGoneWithin(run, STOP_DEADLINE_MS - (Date.now() - signalledAt));
      await run.exited;
      expect(run.output()).not.toMatch(/"level":(50|60)/);
    });
  }
});
