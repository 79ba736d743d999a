import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import * as schema from '../../apps/server/src/db/schema/index.ts';
import type { Db } from '../../apps/server/src/db/client.ts';

export interface ExplainedQuery {
  label: string;
  sql: string;
  params: unknown[];
  plan: string;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements the server really runs: each `run` calls the
 * server's own query function on a Drizzle instance whose logger records the SQL and parameters,
 * which are then explained as they are.
 */
export async function explainQueries(url: string, steps: Array<{ label: string; run: (db: Db) => Promise<unknown> }>): Promise<ExplainedQuery[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const logged: Array<{ sql: string; params: unknown[] }> = [];
  const db = drizzle(pool, { schema, logger: { logQuery: (sql, params) => logged.push({ sql, params }) } }) as unknown as Db;
  const explained: ExplainedQuery[] = [];
  try {
    for (const step of steps) {
      logged.length = 0;
      await step.run(db);
      for (const statement of logged) {
        // Twice: the first warms the cache as the benchmark's own warm-up did.
        await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
        const result = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
        explained.push({ label: step.label, sql: statement.sql, params: statement.params, plan: result.rows.map((r) => r['QUERY PLAN']).join('\n') });
      }
    }
  } finally {
    await pool.end();
  }
  return explained;
}
