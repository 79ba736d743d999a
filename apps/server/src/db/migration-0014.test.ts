import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runMigrations } from './migrate.ts';
import { queryRows } from './rows.ts';
import { openDatabaseBefore } from '../../test/helpers/migrations.ts';
import { DATABASE_KINDS } from '../../test/helpers/test-app.ts';

for (const kind of DATABASE_KINDS) {
  describe(`migration 0014 (seller dashboard) of existing orders [${kind}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it("copies each order's first accepted and shipped instants from its timeline onto the order", async () => {
      const { database } = await openDatabaseBefore(kind, '0014', cleanups);
      const db = database.db;
      await db.execute(sql`INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at) VALUES
        ('u-buyer', 'Buyer', 'buyer@example.com', false, now(), now()), ('u-seller', 'Seller', 'seller@example.com', false, now(), now())`);
      const order = (id: string, status: string) =>
        db.execute(sql`INSERT INTO orders (id, status, buyer_id, buyer_email, buyer_name, seller_id, total_cents, created_at)
          VALUES (${id}, ${status}, 'u-buyer', 'buyer@example.com', 'Buyer', 'u-seller', 1000, '2026-03-01T10:00:00Z')`);
      const event = (orderId: string, to: string, at: string) =>
        db.execute(sql`INSERT INTO order_events (order_id, actor, to_status, created_at) VALUES (${orderId}, 'seller', ${to}, ${at})`);
      const shipped = '00000000-0000-4000-8000-000000000001';
      const placed = '00000000-0000-4000-8000-000000000002';
      await order(shipped, 'delivered');
      await order(placed, 'placed');
      await event(shipped, 'placed', '2026-03-01T10:00:00Z');
      await event(shipped, 'accepted', '2026-03-01T13:30:00Z');
      await event(shipped, 'shipped', '2026-03-02T09:00:00Z');
      await event(shipped, 'delivered', '2026-03-04T09:00:00Z');
      await event(placed, 'placed', '2026-03-01T10:00:00Z');

      await runMigrations(database);
      const rows = await queryRows<{ id: string; accepted_at: string | null; shipped_at: string | null }>(
        db,
        sql`SELECT id, accepted_at::text, shipped_at::text FROM orders ORDER BY id`,
      );
      expect(
        rows.map((r) => ({ id: r.id, acceptedAt: r.accepted_at && Date.parse(r.accepted_at), shippedAt: r.shipped_at && Date.parse(r.shipped_at) })),
      ).toEqual([
        { id: shipped, acceptedAt: Date.parse('2026-03-01T13:30:00Z'), shippedAt: Date.parse('2026-03-02T09:00:00Z') },
        { id: placed, acceptedAt: null, shippedAt: null },
      ]);
    });
  });
}
