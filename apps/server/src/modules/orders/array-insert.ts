import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { slot } from '../../db/prepared.ts';

/**
 * Inserts whose rows travel as one array parameter per column, so a statement has one shape whatever
 * its number of rows: PostgreSQL parses and plans it once per connection, not once per row count (with
 * one placeholder per value, Buy Now's 16 batch sizes on 20 connections cost about 1 ms of planning per
 * order, decision 035; a checkout had one shape per cart shape, decision 038).
 */

/**
 * A data-modifying statement written in a purchase's one statement: its values filled per call, its
 * SQL (with `slot(name)` where those values go) built once per `shape`.
 */
export interface AlsoStatement {
  shape: string;
  values: Record<string, unknown>;
  build: () => SQL;
}

/** Each value as its column's driver value (as drizzle would send it), null for none: one array parameter. */
export function columnArray(column: PgColumn, columnValues: readonly unknown[]): unknown[] {
  return columnValues.map((value) => (value === null || value === undefined ? null : column.mapToDriverValue(value)));
}

/** `unnest($a::t1[], $b::t2[], …) WITH ORDINALITY AS alias(c…, n)`: one row per element, in array order. */
export function unnested(alias: string, arrays: ReadonlyArray<{ name: string; slot: string; type: string }>): SQL {
  const args = arrays.map((array) => sql`${slot(array.slot)}::${sql.raw(array.type)}[]`);
  const names = arrays.map((array) => sql.identifier(array.name));
  return sql`unnest(${sql.join(args, sql`, `)}) WITH ORDINALITY AS ${sql.identifier(alias)}(${sql.join(names, sql`, `)}, n)`;
}

/**
 * The columns an insert of `rows` writes: every one some row gives a value, in the table's order (so
 * one set of columns is one shape). A row without a value there writes null, which is only allowed
 * where null is what the column would have taken anyway: nullable, with no default of its own.
 */
function writtenColumns(table: PgTable, rows: ReadonlyArray<Readonly<Record<string, unknown>>>): Array<[string, PgColumn]> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  for (const row of rows) {
    const unknown = Object.keys(row).find((key) => row[key] !== undefined && !(key in columns));
    if (unknown) throw new Error(`${unknown} is not a column of the table`);
  }
  const written = Object.entries(columns).filter(([key]) => rows.some((row) => row[key] !== undefined));
  for (const [key, column] of written) {
    const fillsNull = rows.some((row) => row[key] === undefined);
    if (fillsNull && (column.notNull || column.hasDefault)) throw new Error(`every row must give ${key}: its column would not take null`);
  }
  return written;
}

export interface ArrayInsertOptions {
  onConflictDoNothing?: boolean;
  /**
   * Buy Now's batch (place-order.ts writeBuyNowBatch): `owners[i]` is the purchase row i belongs to, and
   * a row is written only if the statement's `accepted` step took that purchase's stock (`onlyIfSaving`:
   * and only if that purchase saves its address as the buyer's default).
   */
  owners?: readonly number[];
  onlyIfSaving?: boolean;
}

/**
 * An insert of `rows` into `table` as a statement part: each column's values go to the placeholder
 * `${tag}_${key}` as one array, and the rows are written in array order (notifications' `seq` follows it).
 */
export function arrayInsert(
  tag: string,
  table: PgTable,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  values: Record<string, unknown>,
  options: ArrayInsertOptions = {},
): AlsoStatement {
  const columns = writtenColumns(table, rows);
  for (const [key, column] of columns)
    values[`${tag}_${key}`] = columnArray(
      column,
      rows.map((row) => row[key]),
    );
  const { owners } = options;
  if (owners) values[`${tag}_owner`] = owners;
  const flags = `${options.onConflictDoNothing ? '!' : ''}${owners ? 'b' : ''}${options.onlyIfSaving ? 's' : ''}`;
  return {
    shape: `${tag}[${columns.map(([key]) => key).join(',')}]${flags}`,
    values,
    build() {
      const arrays = [
        ...columns.map(([key, column], j) => ({ name: `c${j}`, slot: `${tag}_${key}`, type: column.getSQLType() })),
        ...(owners ? [{ name: 'owner', slot: `${tag}_owner`, type: 'integer' }] : []),
      ];
      const names = sql.join(
        columns.map(([, column]) => sql.identifier(column.name)),
        sql`, `,
      );
      const picked = sql.join(
        columns.map((_, j) => sql`r.${sql.identifier(`c${j}`)}`),
        sql`, `,
      );
      const saving = options.onlyIfSaving ? sql` AND accepted.save` : sql``;
      const gate = owners ? sql` JOIN accepted ON accepted.ord = r.owner${saving} CROSS JOIN taken` : sql``;
      const onConflict = options.onConflictDoNothing ? sql` ON CONFLICT DO NOTHING` : sql``;
      return sql`INSERT INTO ${table} (${names}) SELECT ${picked} FROM ${unnested('r', arrays)}${gate} ORDER BY r.n${onConflict}`;
    },
  };
}
