import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * Raw SQL rows. Both drivers (PGlite and node-postgres) answer `execute` with `{ rows }`; the shared
 * PgDatabase type cannot say so, hence this one typed place.
 */
export async function queryRows<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
