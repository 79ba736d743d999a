import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runMigrations } from './migrate.ts';
import { queryRows } from './rows.ts';
import { openDatabaseBefore } from '../../test/helpers/migrations.ts';
import { DATABASE_KINDS } from '../../test/helpers/test-app.ts';

for (const kind of DATABASE_KINDS) {
  describe(`migration 0018 (import streaming) of existing import jobs [${kind}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it("moves a waiting job's stored file into its first piece and counts every existing job as uploaded", async () => {
      const { database } = await openDatabaseBefore(kind, '0018', cleanups);
      const db = database.db;
      await db.execute(sql`INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at) VALUES
        ('u-a', 'A', 'a@example.com', false, now(), now()), ('u-b', 'B', 'b@example.com', false, now(), now())`);
      const waiting = '00000000-0000-4000-8000-000000000001';
      const done = '00000000-0000-4000-8000-000000000002';
      await db.execute(sql`INSERT INTO catalog_imports (id, seller_id, seller_email, status, file_name, file, created_at) VALUES
        (${waiting}, 'u-a', 'a@example.com', 'validating', 'a.csv', ${Buffer.from('sku,name\nA-1,Bolt\n')}, '2026-11-20T10:00:00Z'),
        (${done}, 'u-b', 'b@example.com', 'ready', 'b.csv', NULL, '2026-11-21T10:00:00Z')`);

      await runMigrations(database);
      const pieces = await queryRows<{ import_id: string; seq: number; text: string }>(
        db,
        sql`SELECT import_id, seq, convert_from(bytes, 'UTF8') AS text FROM catalog_import_chunks ORDER BY import_id, seq`,
      );
      expect(pieces).toEqual([{ import_id: waiting, seq: 0, text: 'sku,name\nA-1,Bolt\n' }]);
      const jobs = await queryRows<{ id: string; uploaded: boolean }>(
        db,
        sql`SELECT id, uploaded_at = created_at AS uploaded FROM catalog_imports ORDER BY id`,
      );
      expect(jobs).toEqual([
        { id: waiting, uploaded: true },
        { id: done, uploaded: true },
      ]);
    });
  });
}
