import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from './client.ts';
import { MIGRATIONS_FOLDER as migrationsFolder } from '../locations.ts';

/** Any fixed number: every server process takes the same lock before migrating or seeding. */
export const STARTUP_LOCK_ID = 72_620_011;

/** Applies pending migrations; safe on every start and from several processes at once. */
export async function runMigrations(database: Database): Promise<void> {
  // Loaded on use, like the drivers (db/client.ts): only the chosen database's code is in memory.
  if (database.kind === 'pglite') {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
  await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
}
