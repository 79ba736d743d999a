import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import * as schema from '../../apps/server/src/db/schema/index.ts';
import { PGLITE_EXTENSIONS, type Db } from '../../apps/server/src/db/client.ts';
import type { DatabaseTarget } from './processes.ts';

export interface ExplainedQuery {
  label: string;
  sql: string;
  params: unknown[];
  plan: string;
}

type Logger = { logQuery: (sql: string, params: unknown[]) => void };

/** One connection to the benchmark's database: a Drizzle instance with a logger, raw queries, close. */
interface Connection {
  db: Db;
  plan(sql: string, params: unknown[]): Promise<string>;
  close(): Promise<void>;
}

async function connect(target: DatabaseTarget, logger: Logger): Promise<Connection> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 1 });
    return {
      db: drizzlePg(pool, { schema, logger }) as unknown as Db,
      plan: async (sql, params) => (await pool.query<{ 'QUERY PLAN': string }>(sql, params)).rows.map((r) => r['QUERY PLAN']).join('\n'),
      close: () => pool.end(),
    };
  }
  // Only while no server holds the folder (docs/stack.md); pg_trgm as the server loads it.
  const client = new PGlite({ dataDir: target.dataDir, extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  return {
    db: drizzlePglite(client, { schema, logger }) as unknown as Db,
    plan: async (sql, params) => (await client.query<{ 'QUERY PLAN': string }>(sql, params)).rows.map((r) => r['QUERY PLAN']).join('\n'),
    close: () => client.close(),
  };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements the server really runs, on PostgreSQL or a PGlite
 * folder: each `run` calls the server's own query function on a Drizzle instance whose logger
 * records the SQL and parameters, which are then explained as they are.
 */
export async function explainQueries(target: DatabaseTarget, steps: Array<{ label: string; run: (db: Db) => Promise<unknown> }>): Promise<ExplainedQuery[]> {
  const logged: Array<{ sql: string; params: unknown[] }> = [];
  const connection = await connect(target, { logQuery: (sql, params) => logged.push({ sql, params }) });
  const explained: ExplainedQuery[] = [];
  try {
    for (const step of steps) {
      logged.length = 0;
      await step.run(connection.db);
      for (const statement of [...logged]) {
        // Twice: the first warms the cache as the benchmark's own warm-up did.
        await connection.plan(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
        const plan = await connection.plan(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
        explained.push({ label: step.label, sql: statement.sql, params: statement.params, plan });
      }
    }
  } finally {
    await connection.close();
  }
  return explained;
}
