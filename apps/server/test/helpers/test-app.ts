import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { createEmptyDatabase } from '../../../../scripts/throwaway-postgres.ts';
import type { AppContext } from '../../src/context.ts';

export type DatabaseKind = 'pglite' | 'postgres';
/**
 * The databases each API test runs on: both in `npm test`; `TEST_DATABASES=pglite` (`npm run
 * test:quick`) narrows the edit-test loop to the embedded one.
 */
export const DATABASE_KINDS: DatabaseKind[] = databaseKinds(process.env.TEST_DATABASES);

function databaseKinds(setting: string | undefined): DatabaseKind[] {
  const all: DatabaseKind[] = ['pglite', 'postgres'];
  if (!setting) return all;
  const chosen = all.filter((kind) =>
    setting
      .split(',')
      .map((name) => name.trim())
      .includes(kind),
  );
  if (chosen.length === 0) throw new Error(`TEST_DATABASES=${setting} names neither pglite nor postgres`);
  return chosen;
}

export const TEST_ORIGIN = 'http://localhost:3000';

export interface TestEnv {
  kind: DatabaseKind;
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route the app registered (app.ts records them as they are added). */
  routes: RouteOptions[];
  database: Database;
  config: Config;
  /** app.inject with the trusted Origin header that browsers send on writes. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  db(): AppContext['db'];
  close(): Promise<void>;
}

/**
 * A fresh, empty PostgreSQL database on the throwaway cluster; dropped by the returned function.
 * `{ migrated: true }` gives a copy of the run's migrated template instead (global-setup.ts).
 */
export async function createPostgresDatabase(options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return {
    url: await createEmptyDatabase(adminUrl, name, options.migrated ? inject('pgTemplate') : undefined),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

let pgliteTemplate: Promise<Blob> | undefined;

/** The run's migrated PGlite data folder (global-setup.ts), read once per test process. */
export function loadPgliteTemplate(): Promise<Blob> {
  pgliteTemplate ??= readFile(inject('pgliteTemplatePath')).then((bytes) => new Blob([bytes]));
  return pgliteTemplate;
}

/**
 * `logger`: pino options for a test that reads the log; every other test runs without one. The
 * database is a copy of the run's migrated template, unless `env` names one (DATABASE_URL, DATA_DIR).
 */
export async function createTestEnv(kind: DatabaseKind, env: Record<string, string> = {}, logger: object | false = false): Promise<TestEnv> {
  const pgDb = kind === 'postgres' && !env.DATABASE_URL ? await createPostgresDatabase({ migrated: true }) : null;
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: TEST_ORIGIN,
    DATA_DIR: ':memory:',
    RATE_LIMIT: 'false',
    // Test accounts get the cheap hash, except in production mode, which refuses it (config.ts); a
    // suite about hashing passes { PASSWORD_HASH: 'scrypt' }.
    ...(env.NODE_ENV === 'production' ? {} : { PASSWORD_HASH: 'test-sha256' }),
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const database = await openDatabase(
    config.database.kind === 'pglite' && config.database.dataDir === null ? { ...config.database, template: await loadPgliteTemplate() } : config.database,
  );
  // Nothing to do on a copy of the template; a database named in `env` may need migrating.
  await runMigrations(database);
  const { app, ctx, routes } = await buildApp({ config, database, logger });
  await app.ready();
  return {
    kind,
    app,
    ctx,
    routes,
    database,
    config,
    db: () => ctx.db,
    request: (options) => app.inject({ ...options, headers: { origin: TEST_ORIGIN, ...(options.headers ?? {}) } } as InjectOptions),
    async close() {
      await app.close();
      await database.close();
      await pgDb?.drop();
    },
  };
}

/**
 * Declares the same suite once per database. The getter returns the environment built in beforeAll,
 * so tests read `env()` rather than a variable that is undefined at collection time.
 */
export function describeEachDatabase(name: string, body: (env: () => TestEnv) => void, envVars?: Record<string, string>): void {
  for (const kind of DATABASE_KINDS) {
    describe(`${name} [${kind}]`, () => {
      let testEnv: TestEnv | undefined;
      beforeAll(async () => {
        testEnv = await createTestEnv(kind, envVars);
      });
      afterAll(async () => {
        await testEnv?.close();
      });
      body(() => {
        if (!testEnv) throw new Error('test environment not ready');
        return testEnv;
      });
    });
  }
}

/**
 * A PostgreSQL environment whose app listens on a free loopback port: requests sent over real HTTP
 * overlap as in production (PGlite's one connection would run them one at a time anyway).
 */
/**
 * How long a race test may run before it counts as hung. Hundreds of overlapping requests queue for
 * the pool's connections and contend on a row; how long that takes depends on the machine's load, so
 * only a hang is timed: a request waits for a connection as long as this, and so may the test.
 */
export const RACE_HANG_MS = 300_000;

export async function createListeningTestEnv(): Promise<{ env: TestEnv; baseUrl: string }> {
  const env = await createTestEnv('postgres', { DB_POOL_WAIT_MS: String(RACE_HANG_MS) });
  await env.app.listen({ port: 0, host: '127.0.0.1' });
  const address = env.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test server has no port');
  return { env, baseUrl: `http://127.0.0.1:${address.port}` };
}

/** Counts the requests a listening test server holds open at once; `stop()` answers the peak (evidence that they overlapped). */
export function trackOpenRequests(env: TestEnv): { stop: () => number } {
  let open = 0;
  let peak = 0;
  const track = (_request: unknown, response: { once: (event: 'close', listener: () => void) => unknown }) => {
    peak = Math.max(peak, ++open);
    response.once('close', () => open--);
  };
  env.app.server.on('request', track);
  return {
    stop() {
      env.app.server.off('request', track);
      return peak;
    },
  };
}
