import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runMigrations } from './migrate.ts';
import { queryRows } from './rows.ts';
import { openDatabaseBefore } from '../../test/helpers/migrations.ts';
import { DATABASE_KINDS } from '../../test/helpers/test-app.ts';
import { expectRollupToMatchOrders } from '../../test/helpers/dashboard-rollup.ts';
import { insertAccounts, insertHingeAndBolt, insertLines, lineValues } from '../../test/helpers/order-rows.ts';

/** The n-th order's id, fixed so a test can add lines to it. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

for (const kind of DATABASE_KINDS) {
  describe(`migration 0024 (the rollups take a statement's new orders and lines at once) [${kind}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it("keeps the rollups of the orders before it, and adds a multi-row statement's orders and lines as the row triggers did", async () => {
      const { database } = await openDatabaseBefore(kind, '0024', cleanups);
      const db = database.db;
      await insertAccounts(db, ['u-buyer', 'u-shop', 'u-seller', 'u-other']);
      const { hinge, bolt } = await insertHingeAndBolt(db, { hinge: 'u-seller', bolt: 'u-other' });
      const orderValues = (n: number, status: string, buyer: string, seller: string | null, cents: number, at: string) =>
        sql`(${id(n)}::uuid, ${status}, ${buyer}, 'b@example.com', 'B', ${seller}, ${cents}, ${at}::timestamptz)`;
      const line = (n: number, position: number, productId: string | null, quantity: number, unitCents: number) =>
        lineValues(id(n), position, productId, quantity, unitCents);
      const insertOrders = (rows: ReturnType<typeof orderValues>[]) =>
        db.execute(sql`INSERT INTO orders (id, status, buyer_id, buyer_email, buyer_name, seller_id, total_cents, created_at)
          VALUES ${sql.join(rows, sql`, `)}`);

      // Before the migration, through the row triggers: two orders, one of them with two lines.
      await insertOrders([orderValues(1, 'placed', 'u-buyer', 'u-seller', 500, '2026-03-01T10:00:00Z')]);
      await insertLines(db, [line(1, 0, hinge, 2, 250)]);
      await insertOrders([orderValues(2, 'delivered', 'u-shop', 'u-other', 300, '2026-03-01T11:00:00Z')]);
      await insertLines(db, [line(2, 0, bolt, 1, 100), line(2, 1, null, 2, 100)]);
      await expectRollupToMatchOrders(db);

      await runMigrations(database);
      await expectRollupToMatchOrders(db);

      // After it, one statement of orders: two sellers, two buyers, two days, one born cancelled, one with no seller.
      await insertOrders([
        orderValues(3, 'placed', 'u-buyer', 'u-seller', 750, '2026-03-01T12:00:00Z'),
        orderValues(4, 'placed', 'u-buyer', 'u-seller', 250, '2026-03-01T13:00:00Z'),
        orderValues(5, 'placed', 'u-shop', 'u-seller', 500, '2026-03-02T09:00:00Z'),
        orderValues(6, 'placed', 'u-shop', 'u-other', 200, '2026-03-01T12:00:00Z'),
        orderValues(7, 'cancelled', 'u-shop', 'u-other', 900, '2026-03-01T12:00:00Z'),
        orderValues(8, 'placed', 'u-shop', null, 400, '2026-03-01T12:00:00Z'),
      ]);
      // Then one statement of lines: for the new orders (a product twice in one order), for an order from before, for uncounted ones.
      await insertLines(db, [
        line(3, 0, hinge, 1, 250),
        line(3, 1, hinge, 2, 250),
        line(4, 0, hinge, 1, 250),
        line(5, 0, hinge, 2, 250),
        line(6, 0, bolt, 2, 100),
        line(7, 0, bolt, 9, 100),
        line(8, 0, bolt, 4, 100),
        line(1, 1, null, 3, 50),
      ]);
      await expectRollupToMatchOrders(db);
      const days = await queryRows<Record<string, unknown>>(
        db,
        sql`SELECT seller_id, day::text AS day, sum(net_cents)::int AS cents, sum(orders)::int AS orders, sum(units)::int AS units
              FROM seller_sales_days GROUP BY seller_id, day ORDER BY seller_id, day`,
      );
      expect(days).toEqual([
        { seller_id: 'u-other', day: '2026-03-01', cents: 500, orders: 2, units: 5 },
        { seller_id: 'u-seller', day: '2026-03-01', cents: 1500, orders: 3, units: 9 },
        { seller_id: 'u-seller', day: '2026-03-02', cents: 500, orders: 1, units: 2 },
      ]);
      const buyers = await queryRows<Record<string, unknown>>(
        db,
        sql`SELECT seller_id, buyer_id, orders FROM seller_buyer_months ORDER BY seller_id, buyer_id`,
      );
      expect(buyers).toEqual([
        { seller_id: 'u-other', buyer_id: 'u-shop', orders: 2 },
        { seller_id: 'u-seller', buyer_id: 'u-buyer', orders: 3 },
        { seller_id: 'u-seller', buyer_id: 'u-shop', orders: 1 },
      ]);

      // A statement that inserts nothing changes nothing.
      await db.execute(
        sql`INSERT INTO orders (status, buyer_id, buyer_email, buyer_name, seller_id, total_cents) SELECT 'placed', 'u-buyer', 'b', 'B', 'u-seller', 1 WHERE false`,
      );
      await expectRollupToMatchOrders(db);
    });
  });
}
