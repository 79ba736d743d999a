import { createHash } from 'node:crypto';
import { getTableColumns, is, Param, Placeholder, sql, type Column, type InferSelectModel, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';
import { decodeColumns, selectColumns, type Decoded } from './rows.ts';

/**
 * Statements built once and sent as named prepared statements (docs/decisions/022-purchase-statements.md).
 * Drizzle builds a statement's SQL anew on every call and node-postgres sends it unnamed, so
 * PostgreSQL parses and plans it every time too: for the purchase's two big statements that was most of
 * the server's and a third of the database's CPU per order. Here the SQL is built by drizzle once, with
 * `sql.placeholder(name)` where a value goes, and each call only fills the values in (through each
 * column's own encoder, as drizzle would) and runs it under a name the connection prepares once.
 * PGlite has no named statements; it gets the same text and values.
 */

const dialect = new PgDialect();

type Fill = (values: Readonly<Record<string, unknown>>) => unknown;

export interface PreparedSql {
  /** The statement's name on each connection: a hash of its text, so one name never means two texts. */
  name: string;
  text: string;
  fills: Fill[];
}

function filler(param: unknown): Fill {
  if (is(param, Placeholder)) {
    const { name } = param;
    return (values) => values[name];
  }
  if (is(param, Param) && is(param.value, Placeholder)) {
    const { name } = param.value;
    const { encoder } = param;
    return (values) => encoder.mapToDriverValue(values[name]);
  }
  return () => param;
}

/** Builds `query` once. Every value it holds must be a placeholder, or fixed for every call. */
export function prepareSql(query: SQL): PreparedSql {
  const built = dialect.sqlToQuery(query);
  return { name: `bc_${createHash('sha1').update(built.sql).digest('hex').slice(0, 20)}`, text: built.sql, fills: built.params.map(filler) };
}

/** A bounded set of prepared statements by the shape they serve (how many lines, which parts). */
export function preparedByShape(limit = 200): (shape: string, build: () => SQL) => PreparedSql {
  const known = new Map<string, PreparedSql>();
  return (shape, build) => {
    let found = known.get(shape);
    if (!found) {
      found = prepareSql(build());
      if (known.size >= limit) {
        const oldest = known.keys().next();
        if (!oldest.done) known.delete(oldest.value);
      }
      known.set(shape, found);
    }
    return found;
  };
}

/** A placeholder whose name says where its value goes. */
export function slot(name: string) {
  return sql.placeholder(name);
}

/**
 * What node-postgres returns for dates and times when drizzle runs a query: the text PostgreSQL sent
 * (drizzle's column decoders expect it). Other types as node-postgres parses them.
 */
interface TypeParsers {
  getTypeParser(typeId: number, format?: string): (value: string) => unknown;
}
const RAW_TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231]);

interface PgClient {
  query(config: { name?: string; text: string; values: unknown[]; types: TypeParsers }): Promise<{ rows: Record<string, unknown>[] }>;
}
interface PgliteClient {
  exec(text: string): Promise<unknown>;
  query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

let pgTypes: TypeParsers | null = null;
const asSent = (value: string) => value;

/**
 * Whether the purchase's statements go under their name (prepared once per connection) or unnamed
 * (parsed each time): set on each pool and each of its connections when the database is opened
 * (DB_NAMED_STATEMENTS). A pooler in transaction mode may run the next query on a server connection
 * that never saw the name.
 */
const NAMED = Symbol('bulkcart.namedStatements');

export function markNamedStatements(client: object, enabled: boolean): void {
  (client as { [NAMED]?: boolean })[NAMED] = enabled;
}

async function driverTypes(): Promise<TypeParsers> {
  if (!pgTypes) {
    const { default: pg } = await import('pg');
    pgTypes = {
      getTypeParser: (typeId, format) => (RAW_TEXT_TYPES.has(typeId) ? asSent : pg.types.getTypeParser(typeId, format as 'text')),
    };
  }
  return pgTypes;
}

/**
 * The connection drizzle runs `db` (or a transaction) on. drizzle keeps it in its session; both drivers
 * we use keep it there under the same name (drizzle-orm 0.45, pinned in package.json).
 */
function clientOf(db: Db | Tx): PgClient | PgliteClient {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  if (!client || typeof (client as { query?: unknown }).query !== 'function') throw new Error('no database client behind this drizzle instance');
  return client as PgClient | PgliteClient;
}

/** Runs a prepared statement on the connection of `db` (inside its transaction, when it is one). */
export async function runPrepared(db: Db | Tx, statement: PreparedSql, values: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>[]> {
  const params = statement.fills.map((fill) => fill(values));
  const client = clientOf(db);
  if ('exec' in client) return (await client.query(statement.text, params)).rows;
  const types = await driverTypes();
  const named = (client as { [NAMED]?: boolean })[NAMED] !== false;
  return (await client.query(named ? { name: statement.name, text: statement.text, values: params, types } : { text: statement.text, values: params, types }))
    .rows;
}

/**
 * One row of `table` by equality on the columns of `by` (values passed under the same keys), as a
 * named statement: `SELECT` of every column, `LIMIT 1`, decoded as drizzle's select would. For lookups
 * on a purchase's path that drizzle would build, and PostgreSQL plan, on every call.
 */
export function preparedRowLookup<T extends PgTable>(
  table: T,
  by: Readonly<Record<string, PgColumn>>,
): (db: Db | Tx, values: Readonly<Record<string, unknown>>) => Promise<InferSelectModel<T> | undefined> {
  const columns = getTableColumns(table);
  const where = sql.join(
    Object.entries(by).map(([name, column]) => sql`${column} = ${slot(name)}`),
    sql` AND `,
  );
  const select = preparedQuery(columns, (list) => sql`SELECT ${list} FROM ${table} WHERE ${where} LIMIT 1`);
  return async (db, values) => (await select(db, values))[0] as InferSelectModel<T> | undefined;
}

/**
 * A statement built on its first use and sent under its name from then on (parsed and planned once per
 * connection); `build` puts `slot(name)` where the values go. Its rows come back raw.
 */
export function preparedStatement(build: () => SQL): (db: Db | Tx, values: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>[]> {
  let statement: PreparedSql | undefined;
  return (db, values) => runPrepared(db, (statement ??= prepareSql(build())), values);
}

/**
 * A statement built once and sent under its name (parsed and planned once per connection) that answers
 * `columns`: `build` is handed their select list (each aliased, decoded back as drizzle's select would)
 * and puts `slot(name)` where the values go. For the statements of a purchase's path that drizzle would
 * build, and PostgreSQL plan, on every call.
 */
export function preparedQuery<C extends Record<string, Column>>(
  columns: C,
  build: (selectList: SQL) => SQL,
): (db: Db | Tx, values: Readonly<Record<string, unknown>>) => Promise<Array<Decoded<C>>> {
  const run = preparedStatement(() => build(selectColumns(columns, 'c_')));
  return async (db, values) => (await run(db, values)).map((raw) => decodeColumns(columns, raw, 'c_'));
}
