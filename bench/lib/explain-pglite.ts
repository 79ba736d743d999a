import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import * as schema from '../../apps/server/src/db/schema/index.ts';
import { PGLITE_EXTENSIONS, type Db } from '../../apps/server/src/db/client.ts';
import type { ExplainedQuery } from './explain.ts';

/**
 * explainQueries (explain.ts) on a PGlite folder: the same statements the server runs, recorded by
 * Drizzle's logger and explained as they are. Only while no server holds the folder (STACK.md).
 */
export async function explainQueriesPglite(dataDir: string, steps: Array<{ label: string; run: (db: Db) => Promise<unknown> }>): Promise<ExplainedQuery[]> {
  const client = new PGlite({ dataDir, extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  const logged: Array<{ sql: string; params: unknown[] }> = [];
  const db = drizzle(client, { schema, logger: { logQuery: (sql, params) => logged.push({ sql, params }) } }) as unknown as Db;
  const explained: ExplainedQuery[] = [];
  try {
    for (const step of steps) {
      logged.length = 0;
      await step.run(db);
      for (const statement of [...logged]) {
        await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
        const result = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
        explained.push({ label: step.label, sql: statement.sql, params: statement.params, plan: result.rows.map((r) => r['QUERY PLAN']).join('\n') });
      }
    }
  } finally {
    await client.close();
  }
  return explained;
}
