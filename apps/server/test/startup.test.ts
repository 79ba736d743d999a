import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/throwaway-postgres.ts';
import { COMPILED_SERVER_ARGS } from './helpers/compiled-server.ts';

const tempDirs: string[] = [];
/**
 * Start-up (a fresh embedded database, the demo catalog) takes what the machine gives it: these
 * limits only catch a server that hangs, and no test waits on a clock otherwise.
 */
const HANG_MS = 150_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real server entry point as an operator would, and collects what it prints. */
function runServer(env: Record<string, string>, untilStdout?: RegExp): Promise<Run & { kill?: () => Promise<Run> }> {
  const child = spawn(process.execPath, [...COMPILED_SERVER_ARGS], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', PASSWORD_HASH: 'test-sha256', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<Run>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  if (!untilStdout) return exited;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not print ${untilStdout}: ${stdout}${stderr}`)), HANG_MS);
    child.stdout.on('data', () => {
      if (untilStdout.test(stdout)) {
        clearTimeout(timer);
        resolve({
          code: null,
          stdout,
          stderr,
          kill: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((run) => {
      clearTimeout(timer);
      resolve(run);
    });
  });
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-start-'));
  tempDirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('server start-up', { timeout: HANG_MS + 30_000 }, () => {
  it('refuses bad configuration with one message naming each variable, without a stack trace', async () => {
    const run = await runServer({ PORT: 'not-a-port', DATABASE_URL: 'mysql://nope', LOG_LEVEL: 'loud' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/PORT/);
    expect(run.stderr).toMatch(/DATABASE_URL/);
    expect(run.stderr).toMatch(/LOG_LEVEL/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses the test password hash in production, naming the variable', async () => {
    const run = await runServer({ NODE_ENV: 'production', BASE_URL: 'https://shop.example', BETTER_AUTH_SECRET: 'x'.repeat(40), PASSWORD_HASH: 'test-sha256' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/PASSWORD_HASH: test-sha256 is for test accounts only/);
    expect(run.stdout).not.toMatch(/listening/);
  });

  it('gives a one-line reason when the database is unreachable', async () => {
    const deadPort = await freePort();
    const run = await runServer({ DATABASE_URL: `postgres://postgres@127.0.0.1:${deadPort}/x`, PORT: String(await freePort()) });
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/Cannot open the database/);
  });

  it('gives a one-line reason when the port is already in use, before it creates a database', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
    try {
      const dataDir = tempDir();
      const run = await runServer({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false' });
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(new RegExp(`Port ${port} .*already in use`));
      expect(readdirSync(dataDir), 'the embedded database was not created').toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it('prints its URL, reuses the data on a second start, and exits cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    for (let start = 0; start < 2; start++) {
      const port = await freePort();
      const run = await runServer({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }, /listening on/);
      expect(run.stdout).toContain(`http://localhost:${port}`);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok', db: 'ok', databases: { primary: 'ok' } });
      const stopped = await run.kill!();
      expect(stopped.code).toBe(0);
    }
  });
});
