import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../../scripts/throwaway-postgres.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the measured server's code is: this checkout unless --server-root names another one. */
let serverRoot = REPO_ROOT;

export function useServerRoot(root: string): void {
  serverRoot = root;
}

/** Where `--cpu-prof` puts each server's profile (bench:api --cpu-prof=DIR); null: no profiling. */
let profileDir: string | null = null;

export function useCpuProfiles(dir: string): void {
  profileDir = dir;
}
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 15_000;

export interface ChildServer {
  pid: number;
  port: number;
  url: string;
  /** Resident memory of the process now, in MiB (VmRSS from /proc). */
  rssMiB(): number;
  /** Its CPU profile, written when it exits (only with --cpu-prof). */
  profileFile: string | null;
  stop(): Promise<void>;
}

export function readRssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 'NaN');
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

/** Only what a server needs from the parent's environment: nothing of the caller's own settings leaks in. */
function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR'];
  return Object.fromEntries(keep.flatMap((key) => (process.env[key] ? [[key, process.env[key] as string]] : [])));
}

/**
 * Starts a node script as a child process and resolves once it prints `readyPattern`. Its own
 * process, so the load generator never shares the measured event loop.
 */
async function spawnUntilReady(args: string[], env: Record<string, string>, readyPattern: RegExp, name: string, cwd = REPO_ROOT): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (readyPattern.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  // Keep draining its output, so a chatty child never blocks on a full pipe; show only warnings.
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  child.stdout?.resume();
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString('utf8')}`));
  return child;
}

const liveChildren = new Set<ChildProcess>();

/** Last resort when the benchmark itself is interrupted: SIGTERM to every child it started, by PID. */
export function killLiveChildren(): void {
  for (const child of liveChildren) child.kill('SIGTERM');
}

async function stopChild(child: ChildProcess): Promise<void> {
  liveChildren.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function wrap(child: ChildProcess, port: number, profileFile: string | null = null): ChildServer {
  const pid = child.pid;
  if (pid === undefined) throw new Error('child has no pid');
  return { pid, port, url: `http://127.0.0.1:${port}`, rssMiB: () => readRssMiB(pid), profileFile, stop: () => stopChild(child) };
}

export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

export interface ServerOptions {
  database: DatabaseTarget;
  seedDemo?: boolean;
  name?: string;
  /** Settings on top of the benchmark's defaults (e.g. WEB_DIST, RATE_LIMIT). */
  env?: Record<string, string>;
  /** Another checkout's server for this one start (search's --search-compare-root); else the run's. */
  root?: string;
}

let isBuildChecked = false;

/**
 * How the measured server runs: compiled (`node apps/server/dist/server.js` with the checkout's
 * server flags, as its `npm start` runs it), built first when stale in this checkout. Another
 * checkout (--server-root) without a compiled server is one from before the compiled build
 * (docs/decisions/010-production-runtime.md), run as it was then: `node --import tsx apps/server/src/server.ts`.
 */
async function serverCommand(root = serverRoot): Promise<string[]> {
  if (root === REPO_ROOT && !isBuildChecked) {
    execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
    isBuildChecked = true;
  }
  const compiled = path.join(root, 'apps/server/dist/server.js');
  return existsSync(compiled) ? [...(await serverNodeFlags(root)), compiled] : ['--import', 'tsx', 'apps/server/src/server.ts'];
}

/** The checkout's scripts/server-node-flags.ts (none in a checkout from before it), then BENCH_SERVER_NODE_OPTIONS' words. */
async function serverNodeFlags(root: string): Promise<string[]> {
  const file = path.join(root, 'scripts/server-node-flags.ts');
  const own = existsSync(file) ? ((await import(pathToFileURL(file).href)) as { SERVER_NODE_FLAGS: readonly string[] }).SERVER_NODE_FLAGS : [];
  // e.g. `--max-old-space-size=4096` (V8's own ceiling here) to see what the ceiling changes; the last flag wins.
  const extra = process.env.BENCH_SERVER_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? [];
  return [...own, ...extra];
}

/**
 * The server (see serverCommand) on a free loopback port, logging as in production (LOG_LEVEL=info,
 * JSON lines on its stdout, which the benchmark reads and drops), rate limits off unless `env` says.
 * A new PGlite folder is first created by a start and stop of its own: creating the database (initdb
 * in WASM) grows PGlite's memory for the life of the process, which a server restarted on existing
 * data, the everyday case, does not carry.
 */
export async function startServerProcess(options: ServerOptions): Promise<ChildServer> {
  if (options.database.kind === 'pglite' && !existsSync(path.join(options.database.dataDir, 'PG_VERSION'))) {
    await (await launchServer({ ...options, name: `${options.name ?? 'server'}-create` })).stop();
  }
  return launchServer(options);
}

/** One start of the server, without startServerProcess's create-then-restart of a new PGlite folder. */
export async function launchServer(options: ServerOptions): Promise<ChildServer> {
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    // As in production: one JSON access-log line per API call (drained from the pipe by the benchmark).
    LOG_LEVEL: 'info',
    RATE_LIMIT: 'false',
    SEED_DEMO: options.seedDemo ? 'true' : 'false',
    ...(options.database.kind === 'postgres' ? { DATABASE_URL: options.database.url } : { DATA_DIR: options.database.dataDir }),
    ...options.env,
  };
  const root = options.root ?? serverRoot;
  const name = options.name ?? `server-${port}`;
  // Node writes the profile when the process exits, which a SIGTERM'd server does by itself.
  const profileFile = profileDir ? path.join(profileDir, `${name.replace(/[^\w-]+/g, '_')}-${port}.cpuprofile`) : null;
  const profiling = profileFile ? ['--cpu-prof', `--cpu-prof-dir=${path.dirname(profileFile)}`, `--cpu-prof-name=${path.basename(profileFile)}`] : [];
  const child = await spawnUntilReady([...profiling, ...(await serverCommand(root))], env, /BulkCart is listening/, name, root);
  return wrap(child, port, profileFile);
}

/** The bare node:http server that answers fixed bytes: the ceiling our endpoint is compared with. */
export async function startCeilingServer(bodyFile: string, contentType: string, contentEncoding?: string): Promise<ChildServer> {
  const port = await freePort();
  const script = fileURLToPath(new URL('./ceiling-server.ts', import.meta.url));
  const env: Record<string, string> = { CEILING_PORT: String(port), CEILING_BODY_FILE: bodyFile, CEILING_CONTENT_TYPE: contentType };
  if (contentEncoding) env.CEILING_CONTENT_ENCODING = contentEncoding;
  const child = await spawnUntilReady(['--import', 'tsx', script], env, /ceiling listening/, `ceiling:${port}`);
  return wrap(child, port);
}

/** Highest RSS seen while `run` is going, sampled every 200 ms. */
export async function withPeakRss<T>(pids: number[], run: () => Promise<T>): Promise<{ result: T; peakRssMiB: number[] }> {
  const peaks = pids.map((pid) => readRssMiB(pid));
  const timer = setInterval(() => {
    pids.forEach((pid, i) => {
      const rss = readRssMiB(pid);
      const peak = peaks[i] ?? Number.NaN;
      if (rss > peak || Number.isNaN(peak)) peaks[i] = rss;
    });
  }, 200);
  try {
    const result = await run();
    return { result, peakRssMiB: peaks };
  } finally {
    clearInterval(timer);
  }
}
