import { mkdirSync } from 'node:fs';
// Only the extension's descriptor (a file path, no PGlite code): PGlite itself loads when chosen.
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';
import { markNamedStatements } from './prepared.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of `Db`: what a function that must run inside the caller's transaction takes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs `SELECT 1`; throws when the database cannot answer. */
  ping(): Promise<void>;
  /** Runs `fn` while holding a cluster-wide lock (PostgreSQL); PGlite has one connection anyway. */
  withExclusiveLock<T>(lockId: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | ({ kind: 'postgres'; url: string } & Partial<PoolOptions>)
  | {
      kind: 'pglite';
      dataDir: string | null;
      /**
       * In memory only (dataDir null): start as a copy of this data-folder dump (`dumpDataDir`) instead
       * of an empty cluster. The test suites clone a migrated template this way.
       */
      template?: Blob;
    };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'pglite') return openPglite(options.dataDir, options.template);
  return openPostgres(options.url, {
    poolSize: options.poolSize ?? 20,
    poolWaitMs: options.poolWaitMs ?? 10_000,
    ...(options.poolIdleMs !== undefined ? { poolIdleMs: options.poolIdleMs } : {}),
    namedStatements: options.namedStatements ?? true,
  });
}

/**
 * Extensions the migrations create. Every PGlite opener must pass them (search's trigram indexes are
 * written on each product insert), so tools that open a PGlite folder import this.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

// Each driver is loaded only when chosen: a server on PostgreSQL never loads PGlite (and the reverse),
// which keeps the production process smaller.
async function openPglite(dataDir: string | null, template?: Blob): Promise<Database> {
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite({ ...(dataDir ? { dataDir } : template ? { loadDataDir: template } : {}), extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    async ping() {
      await client.query('SELECT 1');
    },
    withExclusiveLock: (_lockId, fn) => fn(),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * A node-postgres pool and its Drizzle handle, opening no connection yet. Queries use unnamed
 * statements (node-postgres names one only when asked), except the purchase's, which db/prepared.ts
 * names unless `namedStatements` is false: through PgBouncer before 1.21 in transaction pooling a
 * name does not survive the transaction (docs/deploy.md).
 */
export interface PoolOptions {
  poolSize: number;
  poolWaitMs: number;
  /** How long an unused connection stays open (config.ts poolIdleMs); node-postgres's 10 s when absent. */
  poolIdleMs?: number;
  namedStatements?: boolean;
}

export async function createPostgresPool(url: string, { poolSize, poolWaitMs, poolIdleMs, namedStatements = true }: PoolOptions) {
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
  // A rush on one product queues requests for a connection; waiting (10 s by default) beats failing
  // them with 503. A database that is down refuses at once (ECONNREFUSED), so outages still answer fast.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: poolWaitMs,
    ...(poolIdleMs !== undefined ? { idleTimeoutMillis: poolIdleMs } : {}),
  });
  // A database restart kills idle and busy connections; without these listeners node-postgres
  // emits an unhandled 'error' event and takes the whole process down (docs/stack.md).
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
    markNamedStatements(client, namedStatements);
  });
  markNamedStatements(pool, namedStatements);
  return { pool, db: drizzlePg(pool, { schema }) as unknown as Db };
}

async function openPostgres(url: string, options: PoolOptions): Promise<Database> {
  const { pool, db } = await createPostgresPool(url, options);
  await pool.query('SELECT 1');
  return {
    kind: 'postgres',
    db,
    async ping() {
      await pool.query('SELECT 1');
    },
    async withExclusiveLock(lockId, fn) {
      // A transaction-scoped lock on a connection of its own, held until its COMMIT: through PgBouncer in
      // transaction pooling the transaction keeps one server connection, where a session lock would stay
      // behind on whichever server connection took it (and be "held" by the next client given it). A
      // crashed holder's transaction ends with its connection and frees the lock.
      const lockClient = await pool.connect();
      try {
        await lockClient.query('BEGIN');
        await lockClient.query('SELECT pg_advisory_xact_lock($1)', [lockId]);
        const result = await fn();
        await lockClient.query('COMMIT');
        return result;
      } catch (error) {
        await lockClient.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        lockClient.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
