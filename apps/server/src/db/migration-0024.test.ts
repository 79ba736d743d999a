import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runMigrations } from './migrate.ts';
import { queryRows } from './rows.ts';
import { openDatabaseBefore } from '../../test/helpers/migrations.ts';
import { DATABASE_KINDS } from '../../test/helpers/test-app.ts';
import { expectRollupToMatchOrders } from '../../test/helpers/dashboard-rollup.ts';

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
      await db.execute(sql`INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at) VALUES
        ('u-buyer', 'Buyer', 'buyer@example.com', false, now(), now()),
        ('u-shop', 'Shop', 'shop@example.com', false, now(), now()),
        ('u-seller', 'Seller', 'seller@example.com', false, now(), now()),
        ('u-other', 'Other', 'other@example.com', false, now(), now())`);
      const [hinge, bolt] = await queryRows<{ id: string }>(
        db,
        sql`INSERT INTO products (name, image, brandname, category, price_cents, mainquantity, minquantity, owner_id, owner_email)
            VALUES ('Hinge', '/h.png', 'B', 'Office Supplies & Stationery', 250, 100, 1, 'u-seller', 'seller@example.com'),
                   ('Bolt', '/b.png', 'B', 'Office Supplies & Stationery', 100, 100, 1, 'u-other', 'other@example.com')
            RETURNING id`,
      );
      const orderValues = (n: number, status: string, buyer: string, seller: string | null, cents: number, at: string) =>
        sql`(${id(n)}::uuid, ${status}, ${buyer}, 'b@example.com', 'B', ${seller}, ${cents}, ${at}::timestamptz)`;
      const lineValues = (n: number, position: number, productId: string | null, quantity: number, unitCents: number) =>
        sql`(${id(n)}::uuid, ${position}, ${productId}::uuid, ${quantity}, ${unitCents}, ${quantity * unitCents}, ${unitCents}, 'P', '/p.png', 'B', 'C', 1)`;
      const insertOrders = (rows: ReturnType<typeof orderValues>[]) =>
        db.execute(sql`INSERT INTO orders (id, status, buyer_id, buyer_email, buyer_name, seller_id, total_cents, created_at)
          VALUES ${sql.join(rows, sql`, `)}`);
      const insertLines = (rows: ReturnType<typeof lineValues>[]) =>
        db.execute(sql`INSERT INTO order_lines (order_id, position, product_id, quantity, unit_price_cents, line_total_cents, list_unit_price_cents,
            product_name, product_image, product_brand, product_category, product_minquantity)
          VALUES ${sql.join(rows, sql`, `)}`);

      // Before the migration, through the row triggers: two orders, one of them with two lines.
      await insertOrders([orderValues(1, 'placed', 'u-buyer', 'u-seller', 500, '2026-03-01T10:00:00Z')]);
      await insertLines([lineValues(1, 0, hinge!.id, 2, 250)]);
      await insertOrders([orderValues(2, 'delivered', 'u-shop', 'u-other', 300, '2026-03-01T11:00:00Z')]);
      await insertLines([lineValues(2, 0, bolt!.id, 1, 100), lineValues(2, 1, null, 2, 100)]);
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
      await insertLines([
        lineValues(3, 0, hinge!.id, 1, 250),
        lineValues(3, 1, hinge!.id, 2, 250),
        lineValues(4, 0, hinge!.id, 1, 250),
        lineValues(5, 0, hinge!.id, 2, 250),
        lineValues(6, 0, bolt!.id, 2, 100),
        lineValues(7, 0, bolt!.id, 9, 100),
        lineValues(8, 0, bolt!.id, 4, 100),
        lineValues(1, 1, null, 3, 50),
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
