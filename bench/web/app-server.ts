import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './paths.ts';

const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

export interface AppServer {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The real server as its own process, on a free port and a fresh embedded database seeded with the
 * demo catalog, serving the build under test. Only PATH/HOME/LANG/TMPDIR pass through, so a caller's
 * DATABASE_URL or NODE_ENV cannot change what is measured.
 */
export async function startAppServer(webDist: string): Promise<AppServer> {
  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-bench-web-data-'));
  const passThrough = ['PATH', 'HOME', 'LANG', 'TMPDIR'].flatMap((key) => (process.env[key] ? [[key, process.env[key]]] : []));
  const env = { ...Object.fromEntries(passThrough), PORT: String(port), HOST: '127.0.0.1', BASE_URL: baseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEB_DIST: webDist };
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await waitUntilListening(child);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  // Keep draining its output so a chatty server never blocks on a full pipe; pass on warnings.
  child.stdout?.resume();
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[server] ${chunk.toString('utf8')}`));
  return {
    pid: child.pid ?? -1,
    baseUrl,
    async stop() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function waitUntilListening(child: ChildProcess): Promise<void> {
  let output = '';
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`));
    }, START_TIMEOUT_MS);
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before it was ready:\n${output}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!/is listening on/.test(output)) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
