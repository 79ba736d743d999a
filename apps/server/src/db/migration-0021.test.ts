import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runMigrations } from './migrate.ts';
import { queryRows } from './rows.ts';
import { openDatabaseBefore } from '../../test/helpers/migrations.ts';
import { DATABASE_KINDS } from '../../test/helpers/test-app.ts';
import { expectRollupToMatchOrders } from '../../test/helpers/dashboard-rollup.ts';

for (const kind of DATABASE_KINDS) {
  describe(`migration 0021 (monthly buyers and fulfilment) of existing orders [${kind}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('counts the orders placed before it per seller, month and buyer, and their fulfilment per month and hour', async () => {
      const { database } = await openDatabaseBefore(kind, '0021', cleanups);
      const db = database.db;
      await db.execute(sql`INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at) VALUES
        ('u-buyer', 'Buyer', 'buyer@example.com', false, now(), now()),
        ('u-shop', 'Shop', 'shop@example.com', false, now(), now()),
        ('u-seller', 'Seller', 'seller@example.com', false, now(), now())`);
      const order = (
        status: string,
        buyer: string,
        at: string,
        accepted: string | null,
        shipped: string | null,
        shipBy: string | null,
        reason: string | null = null,
      ) =>
        db.execute(sql`INSERT INTO orders (status, buyer_id, buyer_email, buyer_name, seller_id, total_cents, created_at, accepted_at, shipped_at, ship_by, reason)
          VALUES (${status}, ${buyer}, 'b@example.com', 'B', 'u-seller', 100, ${at}, ${accepted}::timestamptz, ${shipped}::timestamptz, ${shipBy}::date, ${reason})`);
      // February: two orders of one buyer (one shipped late), one of another that was declined.
      await order('delivered', 'u-buyer', '2026-02-03T10:00:00Z', '2026-02-03T15:30:00Z', '2026-02-06T09:00:00Z', '2026-02-05');
      await order('accepted', 'u-buyer', '2026-02-28T23:00:00Z', '2026-03-01T01:00:00Z', null, '2026-03-04');
      await order('declined', 'u-shop', '2026-02-10T10:00:00Z', null, null, null);
      // March: one expired by the sweep, one placed.
      await order('cancelled', 'u-shop', '2026-03-02T10:00:00Z', null, null, null, 'Not accepted in time');
      await order('placed', 'u-shop', '2026-03-05T10:00:00Z', null, null, null);

      await runMigrations(database);
      const buyers = await queryRows<Record<string, unknown>>(
        db,
        sql`SELECT month::text AS month, buyer_id, orders FROM seller_buyer_months WHERE seller_id = 'u-seller' ORDER BY month, buyer_id`,
      );
      expect(buyers).toEqual([
        { month: '2026-02-01', buyer_id: 'u-buyer', orders: 2 },
        { month: '2026-03-01', buyer_id: 'u-shop', orders: 1 },
      ]);
      const fulfilment = await queryRows<Record<string, unknown>>(
        db,
        sql`SELECT month::text AS month, measure, hours, orders FROM seller_fulfilment_months WHERE seller_id = 'u-seller' ORDER BY month, measure, hours`,
      );
      expect(fulfilment).toEqual([
        { month: '2026-02-01', measure: 'accept', hours: 2, orders: 1 },
        { month: '2026-02-01', measure: 'accept', hours: 5, orders: 1 },
        { month: '2026-02-01', measure: 'late', hours: 0, orders: 1 },
        { month: '2026-02-01', measure: 'ship', hours: 65, orders: 1 },
        { month: '2026-02-01', measure: 'shipped', hours: 0, orders: 1 },
        { month: '2026-03-01', measure: 'expired', hours: 0, orders: 1 },
      ]);

      // From here the triggers keep them: an accept and a shipment, a cancel, an order moved to
      // another month, a deletion.
      await db.execute(sql`UPDATE orders SET status = 'accepted', accepted_at = created_at + interval '90 minutes' WHERE status = 'placed'`);
      await db.execute(sql`UPDATE orders SET status = 'shipped', shipped_at = accepted_at + interval '1 day' WHERE created_at = '2026-02-28T23:00:00Z'`);
      await db.execute(sql`UPDATE orders SET status = 'cancelled' WHERE created_at = '2026-03-05T10:00:00Z'`);
      await db.execute(sql`UPDATE orders SET created_at = '2026-01-31T10:00:00Z' WHERE created_at = '2026-02-03T10:00:00Z'`);
      await db.execute(sql`DELETE FROM orders WHERE status = 'declined'`);
      await expectRollupToMatchOrders(db);
    });
  });
}
