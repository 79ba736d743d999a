import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from './client.ts';
import { MIGRATIONS_FOLDER as migrationsFolder } from '../locations.ts';

/** Any fixed number: every server process takes the same lock before migrating or seeding. */
export const STARTUP_LOCK_ID = 72_620_011;

/** Applies pending migrations; safe on every start and from several processes at once. */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
}
