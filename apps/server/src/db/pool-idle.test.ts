import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from './client.ts';
import { queryRows } from './rows.ts';
import { createPostgresDatabase } from '../../test/helpers/test-app.ts';

/** The backend serving one query of `database`'s pool: the connection the pool keeps after it. */
async function backendOf(database: Database): Promise<number> {
  const [row] = await queryRows<{ pid: number }>(database.db, sql`SELECT pg_backend_pid() AS pid`);
  return row!.pid;
}

/**
 * DB_POOL_IDLE_MS (config.ts poolIdleMs): an unused connection stays open that long, keeping its
 * prepared statements, so a lull shorter than it costs no new connection.
 */
describe('PostgreSQL pool: unused connections stay open for DB_POOL_IDLE_MS', () => {
  let url = '';
  let drop: () => Promise<void> = async () => {};
  const opened: Database[] = [];

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase());
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    await drop();
  });

  it('keeps an unused connection for a minute by default and closes it after the time set', async () => {
    const config = loadConfig({ DATABASE_URL: url });
    if (config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    expect(config.database.poolIdleMs).toBe(60_000);
    const kept = await openDatabase({ kind: 'postgres', url, poolSize: 1, poolIdleMs: config.database.poolIdleMs });
    const closed = await openDatabase({ kind: 'postgres', url, poolSize: 1, poolIdleMs: 1_000 });
    const watcher = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
    opened.push(kept, closed, watcher);
    const backends = [await backendOf(kept), await backendOf(closed)];

    const alive = async () =>
      (
        await queryRows<{ pid: number }>(
          watcher.db,
          sql`SELECT pid FROM pg_stat_activity WHERE pid IN (${sql.join(
            backends.map((pid) => sql`${pid}`),
            sql`, `,
          )}) ORDER BY pid`,
        )
      ).map((row) => row.pid);
    expect(await alive()).toEqual([...backends].sort((a, b) => a - b));
    // Past the short setting (and node-postgres's own 10 s would not have passed either way).
    await sleep(2_500);
    expect(await alive()).toEqual([backends[0]]);
    // The kept connection is the one the next query gets.
    expect(await backendOf(kept)).toBe(backends[0]);
  });

  it('refuses a setting under a second or over an hour, naming the variable', () => {
    for (const value of ['999', '3600001', 'soon']) {
      expect(() => loadConfig({ DATABASE_URL: url, DB_POOL_IDLE_MS: value })).toThrow(/DB_POOL_IDLE_MS/);
    }
    const config = loadConfig({ DATABASE_URL: url, DB_POOL_IDLE_MS: '5000' });
    expect(config.database.kind === 'postgres' && config.database.poolIdleMs).toBe(5_000);
  });
});
