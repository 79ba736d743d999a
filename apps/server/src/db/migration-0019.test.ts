import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runMigrations } from './migrate.ts';
import { queryRows } from './rows.ts';
import { openDatabaseBefore } from '../../test/helpers/migrations.ts';
import { DATABASE_KINDS } from '../../test/helpers/test-app.ts';
import { expectRollupToMatchOrders } from '../../test/helpers/dashboard-rollup.ts';
import { insertAccounts, insertHingeAndBolt, insertLines, lineValues } from '../../test/helpers/order-rows.ts';

for (const kind of DATABASE_KINDS) {
  describe(`migration 0019 (dashboard rollup) of existing orders [${kind}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('sums the counted orders placed before it per seller and UTC day, and per product; the triggers keep it so afterwards', async () => {
      const { database } = await openDatabaseBefore(kind, '0019', cleanups);
      const db = database.db;
      await insertAccounts(db, ['u-buyer', 'u-seller', 'u-other']);
      const { hinge, bolt } = await insertHingeAndBolt(db, { hinge: 'u-seller', bolt: 'u-seller' });
      const order = (id: string, status: string, seller: string | null, cents: number, at: string) =>
        db.execute(sql`INSERT INTO orders (id, status, buyer_id, buyer_email, buyer_name, seller_id, total_cents, created_at)
          VALUES (${id}::uuid, ${status}, 'u-buyer', 'buyer@example.com', 'Buyer', ${seller}, ${cents}, ${at})`);
      const line = (orderId: string, position: number, productId: string | null, quantity: number, unitCents: number) =>
        insertLines(db, [lineValues(orderId, position, productId, quantity, unitCents)]);
      const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
      // 1 March: two lines, delivered; a placed one just before midnight UTC; a cancelled one.
      await order(id(1), 'delivered', 'u-seller', 1200, '2026-03-01T10:00:00Z');
      await line(id(1), 1, hinge, 4, 250);
      await line(id(1), 2, bolt, 2, 100);
      await order(id(2), 'placed', 'u-seller', 500, '2026-03-01T23:59:59Z');
      await line(id(2), 1, hinge, 2, 250);
      await order(id(3), 'cancelled', 'u-seller', 1000, '2026-03-01T11:00:00Z');
      await line(id(3), 1, hinge, 4, 250);
      // 2 March (UTC) a minute after midnight: accepted; a declined one; another seller's; one whose seller is gone.
      await order(id(4), 'accepted', 'u-seller', 300, '2026-03-02T00:01:00Z');
      await line(id(4), 1, bolt, 3, 100);
      await order(id(5), 'declined', 'u-seller', 100, '2026-03-02T09:00:00Z');
      await line(id(5), 1, bolt, 1, 100);
      await order(id(6), 'shipped', 'u-other', 700, '2026-03-02T09:00:00Z');
      await line(id(6), 1, null, 7, 100);
      await order(id(7), 'placed', null, 900, '2026-03-02T09:00:00Z');
      await line(id(7), 1, null, 9, 100);

      await runMigrations(database);
      const days = await queryRows<Record<string, unknown>>(
        db,
        sql`SELECT seller_id, day::text AS day, sum(net_cents)::int AS cents, sum(orders)::int AS orders, sum(units)::int AS units
            FROM seller_sales_days GROUP BY seller_id, day ORDER BY seller_id, day`,
      );
      expect(days).toEqual([
        { seller_id: 'u-other', day: '2026-03-02', cents: 700, orders: 1, units: 7 },
        { seller_id: 'u-seller', day: '2026-03-01', cents: 1700, orders: 2, units: 8 },
        { seller_id: 'u-seller', day: '2026-03-02', cents: 300, orders: 1, units: 3 },
      ]);
      const products = await queryRows<Record<string, unknown>>(
        db,
        sql`SELECT day::text AS day, product_id, net_cents::int AS cents, units::int AS units FROM seller_product_sales_days ORDER BY day, net_cents DESC`,
      );
      expect(products).toEqual([
        { day: '2026-03-01', product_id: hinge, cents: 1500, units: 6 },
        { day: '2026-03-01', product_id: bolt, cents: 200, units: 2 },
        { day: '2026-03-02', product_id: bolt, cents: 300, units: 3 },
      ]);

      // From here the triggers keep it: a cancel, an order moved to another day, a new order with its
      // line, a shipment (nothing counted changes), a counted order deleted with its lines.
      await db.execute(sql`UPDATE orders SET status = 'cancelled' WHERE id = ${id(2)}::uuid`);
      await db.execute(sql`UPDATE orders SET created_at = '2026-03-03T08:00:00Z' WHERE id = ${id(4)}::uuid`);
      await db.execute(sql`UPDATE orders SET status = 'shipped' WHERE id = ${id(1)}::uuid`);
      await db.execute(sql`DELETE FROM orders WHERE id = ${id(6)}::uuid`);
      await order(id(8), 'placed', 'u-seller', 250, '2026-03-03T12:00:00Z');
      await line(id(8), 1, hinge, 1, 250);
      await expectRollupToMatchOrders(db);
      const [march3] = await queryRows<Record<string, unknown>>(
        db,
        sql`SELECT sum(net_cents)::int AS cents, sum(orders)::int AS orders, sum(units)::int AS units FROM seller_sales_days WHERE seller_id = 'u-seller' AND day = '2026-03-03'`,
      );
      expect(march3).toEqual({ cents: 550, orders: 2, units: 4 });
    });
  });
}
