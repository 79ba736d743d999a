import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { MIGRATIONS_FOLDER } from '../../src/locations.ts';
import { createPostgresDatabase, TEST_ORIGIN, type DatabaseKind } from './test-app.ts';

/**
 * The migrations folder as it was before the migration whose tag starts with `tagPrefix` (e.g. "0004"):
 * the earlier migrations and a journal that ends there. A test migrates a database to it, writes rows
 * in the shape of that time, then runs every migration to check the one it is about.
 */
export function migrationsBefore(tagPrefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'bulkcart-migrations-'));
  mkdirSync(join(dir, 'meta'));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const end = journal.entries.findIndex((e) => e.tag.startsWith(tagPrefix));
  if (end < 0) throw new Error(`no migration ${tagPrefix}`);
  const entries = journal.entries.slice(0, end);
  for (const entry of entries) cpSync(join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), join(dir, `${entry.tag}.sql`));
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs the migrations of `migrationsFolder` with drizzle's migrator for the database's driver. */
export async function migrateWith(database: Database, migrationsFolder: string): Promise<void> {
  if (database.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as unknown as PgliteDatabase, { migrationsFolder });
  } else {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(database.db as unknown as NodePgDatabase, { migrationsFolder });
  }
}

/**
 * A fresh database of `kind` migrated up to just before the migration `tagPrefix`, with the config a
 * test app needs to open it. Everything it creates is undone by the functions pushed onto `cleanups`.
 */
export async function openDatabaseBefore(
  kind: DatabaseKind,
  tagPrefix: string,
  cleanups: Array<() => Promise<void> | void>,
): Promise<{ database: Database; config: Config }> {
  const pg = kind === 'postgres' ? await createPostgresDatabase() : null;
  if (pg) cleanups.push(pg.drop);
  const config = loadConfig({
    NODE_ENV: 'test',
    BASE_URL: TEST_ORIGIN,
    DATA_DIR: ':memory:',
    RATE_LIMIT: 'false',
    PASSWORD_HASH: 'test-sha256',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  });
  const database = await openDatabase(config.database);
  cleanups.push(() => database.close());
  const before = migrationsBefore(tagPrefix);
  cleanups.push(before.remove);
  await migrateWith(database, before.dir);
  return { database, config };
}
