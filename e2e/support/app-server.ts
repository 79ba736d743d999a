import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.ts';
import { freePort } from '../../scripts/throwaway-postgres.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface AppServer {
  baseUrl: string;
  stop(): Promise<void>;
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  // A fresh embedded database and the demo catalog take a while on a busy 2-core machine.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${log()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

/**
 * The compiled server (`npm run build` makes it), as production runs it, on a free port with a fresh
 * embedded database and the demo catalog. `env` adds settings (e.g. Google's).
 */
export async function startAppServer(env: Record<string, string> = {}, port?: number): Promise<AppServer> {
  const chosenPort = port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${chosenPort}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-e2e-'));
  let output = '';
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'apps/server/dist/server.js'], {
    cwd: root,
    // PASSWORD_HASH: the test accounts' cheap hash (config.ts refuses it in production).
    // RATE_LIMIT: every worker's browsers reach this server from 127.0.0.1, like a whole office behind
    // one address, so the per-address limit on failed sign-ins (five a minute, attempts in flight
    // counted) would let one spec's deliberate wrong passwords refuse another spec's right one. The
    // limits are proven by the API tests (rate-limits.test.ts, path-respellings.test.ts) on both databases.
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(chosenPort),
      HOST: '127.0.0.1',
      BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MAIL_INTERVAL_MS: '100',
      PASSWORD_HASH: 'test-sha256',
      RATE_LIMIT: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (output += d));
  server.stderr?.on('data', (d) => (output += d));
  await waitForHealth(baseUrl, server, () => output);
  return {
    baseUrl,
    async stop() {
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        await new Promise((r) => server.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
