/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: installs the server with apt-get when it is
 * missing (and we are root), starts it on a free loopback port in a temp folder, and removes it on stop.
 * PostgreSQL refuses to run as root, so the cluster runs as the `postgres` user (docs/stack.md).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface ThrowawayPostgres {
  url: string;
  port: number;
  dataDir: string;
  binDir: string;
  /** Stops the server (fast shutdown) but keeps the data; `start()` brings it back. */
  pause(): void;
  start(): void;
  stop(): void;
}

function findBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => Number(v) >= 15)
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const dir = path.join(root, v, 'bin');
    if (existsSync(path.join(dir, 'pg_ctl')) && existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return null;
}

export function ensurePostgresInstalled(): string {
  const found = findBinDir();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error('PostgreSQL ≥ 15 is not installed. Install it (e.g. `sudo apt-get install -y postgresql`) or run the tests as root so they can.');
  }
  console.error('[postgres] installing postgresql with apt-get…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const dir = findBinDir();
  if (!dir) throw new Error('postgresql was installed but no PostgreSQL ≥ 15 binaries were found');
  return dir;
}

/**
 * Creates an empty database `name` on the cluster `adminUrl` reaches and answers its URL; with
 * `template`, a copy of that database instead (no one may be connected to it). `name` and `template`
 * must be plain identifiers (the callers build them from letters, digits and underscores).
 */
export async function createEmptyDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function asPostgres(cmd: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const result = isRoot ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' }) : spawnSync(cmd, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(cmd)} failed: ${result.stderr || result.stdout}`);
}

export interface ThrowawayOptions {
  /** Load pg_stat_statements (benchmarks count the statements each request runs); off for tests. */
  statStatements?: boolean;
}

export async function startThrowawayPostgres(settings: ThrowawayOptions = {}): Promise<ThrowawayPostgres> {
  const binDir = ensurePostgresInstalled();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dataDir, uid, gid);
  }
  const port = await freePort();
  asPostgres(path.join(binDir, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dataDir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c shared_buffers=256MB${
    settings.statStatements
      ? ' -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all -c pg_stat_statements.track_planning=on -c pg_stat_statements.max=1000'
      : ''
  }`;
  const start = () => asPostgres(path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-o', options, '-l', path.join(dataDir, 'server.log'), '-w', 'start']);
  const pause = () => asPostgres(path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    binDir,
    pause,
    start,
    stop() {
      try {
        pause();
      } catch {
        // already stopped
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
