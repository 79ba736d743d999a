import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runMigrations } from './migrate.ts';
import { queryRows } from './rows.ts';
import { openDatabaseBefore } from '../../test/helpers/migrations.ts';
import { DATABASE_KINDS } from '../../test/helpers/test-app.ts';

for (const kind of DATABASE_KINDS) {
  describe(`migration 0010 (documents out of the profile rows, revisions) of existing profiles [${kind}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('moves every stored document byte for byte into business_documents and gives each profile its own revision', async () => {
      const { database } = await openDatabaseBefore(kind, '0010', cleanups);
      const db = database.db;
      // Profiles as 0008 left them: one with its permit in the row, one saved without a document yet.
      await db.execute(sql`INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at) VALUES
        ('u-with', 'With Document', 'with@example.com', false, now(), now()),
        ('u-without', 'Without Document', 'without@example.com', false, now(), now())`);
      const permit = Buffer.from('%PDF-1.4\nold permit bytes\n%%EOF\n');
      await db.execute(sql`INSERT INTO business_profiles (user_id, legal_name, business_type, permit_number, permit_region, permit_expires, address, status,
          document, document_type, document_name, document_size, document_uploaded_at) VALUES
        ('u-with', 'With Ltd', 'retail_store', 'P-1', 'CA', '2030-01-01', '{}'::jsonb, 'pending', ${permit}, 'application/pdf', 'permit.pdf', ${permit.length}, '2026-01-02T03:04:05Z')`);
      await db.execute(sql`INSERT INTO business_profiles (user_id, legal_name, business_type, permit_number, permit_region, permit_expires, address)
        VALUES ('u-without', 'Without Ltd', 'other', 'P-2', 'CA', '2030-01-01', '{}'::jsonb)`);

      await runMigrations(database);
      const documents = await queryRows<{ user_id: string; bytes: string; updated_at: string }>(
        db,
        sql`SELECT p.user_id, encode(d.bytes, 'escape') AS bytes, d.updated_at::text FROM business_documents d JOIN business_profiles p ON p.id = d.profile_id`,
      );
      expect(documents).toHaveLength(1);
      expect(documents[0]).toMatchObject({ user_id: 'u-with', bytes: permit.toString('latin1') });
      expect(Date.parse(documents[0]!.updated_at)).toBe(Date.parse('2026-01-02T03:04:05Z'));
      const columns = await queryRows<{ column_name: string }>(
        db,
        sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'business_profiles' AND column_name = 'document'`,
      );
      expect(columns).toEqual([]);
      const revisions = await queryRows<{ revision: string }>(db, sql`SELECT revision FROM business_profiles ORDER BY user_id`);
      expect(revisions.map((r) => r.revision)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^[0-9a-f]{32}$/)]);
      expect(revisions[0]!.revision).not.toBe(revisions[1]!.revision);
    });
  });
}
