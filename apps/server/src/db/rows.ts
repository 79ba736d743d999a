import { sql, type Column, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * Raw SQL rows. Both drivers (PGlite and node-postgres) answer `execute` with `{ rows }`; the shared
 * PgDatabase type cannot say so, hence this one typed place.
 */
export async function queryRows<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export type Decoded<T extends Record<string, Column>> = { [K in keyof T]: T[K]['_']['notNull'] extends true ? T[K]['_']['data'] : T[K]['_']['data'] | null };

/**
 * Columns for a raw statement that also returns something a select cannot (rows of two shapes in one
 * answer): each column under `prefix` + its key, read back by `decodeColumns`.
 */
export function selectColumns(columns: Record<string, Column>, prefix: string): SQL {
  return sql.join(
    Object.entries(columns).map(([key, column]) => sql`${column} AS ${sql.identifier(prefix + key)}`),
    sql`, `,
  );
}

/** NULL in every column of `selectColumns`, for the rows of the other shape. */
export function nullColumns(columns: Record<string, Column>, prefix: string): SQL {
  return sql.join(
    Object.keys(columns).map((key) => sql`NULL AS ${sql.identifier(prefix + key)}`),
    sql`, `,
  );
}

/** A raw row's `selectColumns` decoded as a select decodes them (timestamps, bigints, JSON). */
export function decodeColumns<T extends Record<string, Column>>(columns: T, raw: Record<string, unknown>, prefix: string): Decoded<T> {
  const decoded: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = raw[prefix + key];
    decoded[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return decoded as Decoded<T>;
}
