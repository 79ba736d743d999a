import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { createEmptyDatabase } from '../../../../scripts/throwaway-postgres.ts';
import { openDatabase } from '../../src/db/client.ts';
import { runMigrations } from '../../src/db/migrate.ts';

/**
 * Migrated template databases, built once per test run by global-setup.ts: every API test's database
 * is a copy of one (PostgreSQL's CREATE DATABASE … TEMPLATE, PGlite's data-folder dump) instead of a
 * cluster migrated from nothing. The migration tests still start from nothing (helpers/migrations.ts).
 */

/** A PostgreSQL database migrated to the newest migration, left with no connection open so it can be copied. */
export async function createPostgresTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `t_template_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const database = await openDatabase({ kind: 'postgres', url: await createEmptyDatabase(adminUrl, name), poolSize: 1 });
  try {
    await runMigrations(database);
  } finally {
    await database.close();
  }
  return {
    name,
    async drop() {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A migrated in-memory PGlite, dumped (uncompressed: loading skips the unpacking) to the file `path`. */
export async function writePgliteTemplate(path: string): Promise<void> {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    await runMigrations(database);
    const client = (database.db as unknown as { $client: { dumpDataDir(compression: 'none'): Promise<Blob> } }).$client;
    writeFileSync(path, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await database.close();
  }
}
