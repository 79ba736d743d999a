import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createEmptyDatabase } from '../../scripts/throwaway-postgres.ts';
import { PGLITE_EXTENSIONS } from '../../apps/server/src/db/client.ts';
import type { DatabaseTarget } from './processes.ts';
import { DATABASE_LABEL } from './context.ts';

export type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

let counter = 0;

/** A fresh, empty database on the throwaway cluster. */
export async function createPostgresDatabase(adminUrl: string, label: string): Promise<DatabaseTarget & { kind: 'postgres' }> {
  counter += 1;
  const name = `bench_${label.replace(/\W+/g, '_')}_${process.pid}_${counter}`;
  return { kind: 'postgres', url: await createEmptyDatabase(adminUrl, name) };
}

/** A fresh PGlite data folder; removed by the returned function. */
export function createPgliteFolder(): { target: DatabaseTarget & { kind: 'pglite' }; remove: () => void } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-bench-pglite-'));
  return { target: { kind: 'pglite', dataDir }, remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** A fresh database of either kind: a PGlite folder (removed by `remove`) or a PostgreSQL database. */
export async function createBenchDatabase(
  adminUrl: string,
  kind: DatabaseTarget['kind'],
  label: string,
): Promise<{ target: DatabaseTarget; remove: () => void }> {
  if (kind === 'pglite') return createPgliteFolder();
  return { target: await createPostgresDatabase(adminUrl, label), remove: () => {} };
}

/**
 * Runs `measure` once per database of the run (PostgreSQL first), each on a fresh database of its
 * own, removed afterwards; the rows in that order.
 */
export async function forEachDatabase<R>(
  context: { databases: Array<DatabaseTarget['kind']>; pgAdminUrl: string },
  label: string,
  measure: (target: DatabaseTarget, database: string) => Promise<R>,
): Promise<R[]> {
  const rows: R[] = [];
  for (const kind of [...context.databases].reverse()) {
    const { target, remove } = await createBenchDatabase(context.pgAdminUrl, kind, label);
    try {
      rows.push(await measure(target, DATABASE_LABEL[kind]));
    } finally {
      remove();
    }
  }
  return rows;
}

/**
 * Direct SQL on the database under test. A PGlite folder must never be open in two processes at
 * once (docs/stack.md), so for PGlite call this only while no server holds it.
 */
export async function withSql<T>(target: DatabaseTarget, run: (query: Query) => Promise<T>): Promise<T> {
  if (target.kind === 'postgres') {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      return await run(async (text, params) => (await client.query(text, params)).rows);
    } finally {
      await client.end();
    }
  }
  const db = new PGlite({ dataDir: target.dataDir, extensions: PGLITE_EXTENSIONS });
  await db.waitReady;
  try {
    return await run(async <R>(text: string, params?: unknown[]) => (await db.query<R>(text, params)).rows);
  } finally {
    await db.close();
  }
}
