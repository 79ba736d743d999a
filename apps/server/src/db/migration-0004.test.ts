import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Order } from '@bulkcart/contracts';
import { buildApp } from '../app.ts';
import { runMigrations } from './migrate.ts';
import { queryRows } from './rows.ts';
import { openDatabaseBefore } from '../../test/helpers/migrations.ts';
import { DATABASE_KINDS, TEST_ORIGIN } from '../../test/helpers/test-app.ts';
import { TEST_SHIP_TO } from '../../test/helpers/accounts.ts';

for (const kind of DATABASE_KINDS) {
  describe(`migration 0004 (order workflow) of existing orders [${kind}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('turns every one-line order into an order with one line, a number, a status, a seller and a timeline', async () => {
      const { database, config } = await openDatabaseBefore(kind, '0004', cleanups);

      // Rows in the shape 0003 left them: a live order, a cancelled one, one whose product was deleted.
      const db = database.db;
      await db.execute(sql`INSERT INTO "user" (id, name, email, email_verified) VALUES
        ('old-buyer', 'Old Buyer', 'old-buyer@example.com', true), ('old-seller', 'Old Seller Co', 'old-seller@example.com', true)`);
      await db.execute(sql`INSERT INTO session (id, token, user_id, expires_at) VALUES
        ('s1', 'old-buyer-token-0123456789', 'old-buyer', now() + interval '1 day'),
        ('s2', 'old-seller-token-0123456789', 'old-seller', now() + interval '1 day')`);
      const [product] = await queryRows<{ id: string }>(
        db,
        sql`INSERT INTO products (name, image, brandname, category, mainquantity, minquantity, price_cents, owner_id, owner_email)
            VALUES ('Old Mug', '/images/mug.webp', 'OldBrand', 'Home & Kitchen Appliances', 500, 10, 300, 'old-seller', 'old-seller@example.com') RETURNING id`,
      );
      const insertOrder = (productId: string | null, quantity: number, cancelled: boolean) =>
        queryRows<{ id: string; seq: number }>(
          db,
          sql`INSERT INTO orders (buyer_id, buyer_email, buyer_name, product_id, quantity, unit_price_cents, line_total_cents,
                list_unit_price_cents, tier_minquantity, product_name, product_image, product_brand, product_category,
                product_minquantity, cancelled_at)
              VALUES ('old-buyer', 'old-buyer@example.com', 'Old Buyer', ${productId}, ${quantity}, 270, ${270 * quantity}, 300, NULL,
                'Old Mug', '/images/mug.webp', 'OldBrand', 'Home & Kitchen Appliances', 10, ${cancelled ? sql`now()` : sql`NULL`})
              RETURNING id, seq::int AS seq`,
        );
      const [live] = await insertOrder(product!.id, 20, false);
      const [cancelled] = await insertOrder(product!.id, 10, true);
      const [orphan] = await insertOrder(null, 30, false);

      await runMigrations(database);

      const rows = await queryRows<{
        id: string;
        number: string;
        status: string;
        seller_id: string | null;
        seller_name: string;
        total_cents: string;
        ship_to: unknown;
      }>(db, sql`SELECT id, number, status, seller_id, seller_name, total_cents::text, ship_to FROM orders ORDER BY seq`);
      expect(rows).toEqual([
        {
          id: live!.id,
          number: `BC-${10000 + live!.seq}`,
          status: 'placed',
          seller_id: 'old-seller',
          seller_name: 'Old Seller Co',
          total_cents: '5400',
          ship_to: null,
        },
        {
          id: cancelled!.id,
          number: `BC-${10000 + cancelled!.seq}`,
          status: 'cancelled',
          seller_id: 'old-seller',
          seller_name: 'Old Seller Co',
          total_cents: '2700',
          ship_to: null,
        },
        { id: orphan!.id, number: `BC-${10000 + orphan!.seq}`, status: 'placed', seller_id: null, seller_name: '', total_cents: '8100', ship_to: null },
      ]);
      const lines = await queryRows<{ order_id: string; position: number; quantity: number; line_total_cents: string; product_name: string }>(
        db,
        sql`SELECT order_id, position, quantity, line_total_cents::text, product_name FROM order_lines ORDER BY quantity`,
      );
      expect(lines).toEqual([
        { order_id: cancelled!.id, position: 1, quantity: 10, line_total_cents: '2700', product_name: 'Old Mug' },
        { order_id: live!.id, position: 1, quantity: 20, line_total_cents: '5400', product_name: 'Old Mug' },
        { order_id: orphan!.id, position: 1, quantity: 30, line_total_cents: '8100', product_name: 'Old Mug' },
      ]);
      const events = await queryRows<{ order_id: string; from_status: string | null; to_status: string }>(
        db,
        sql`SELECT order_id, from_status, to_status FROM order_events ORDER BY seq`,
      );
      expect(events).toEqual([
        { order_id: live!.id, from_status: null, to_status: 'placed' },
        { order_id: cancelled!.id, from_status: null, to_status: 'placed' },
        { order_id: orphan!.id, from_status: null, to_status: 'placed' },
        { order_id: cancelled!.id, from_status: 'placed', to_status: 'cancelled' },
      ]);

      // The migrated orders keep working through the API, and new orders number after them.
      const { app } = await buildApp({ config, database, logger: false });
      cleanups.push(() => app.close());
      const asBuyer = { authorization: 'Bearer old-buyer-token-0123456789', origin: TEST_ORIGIN };
      const asSeller = { authorization: 'Bearer old-seller-token-0123456789', origin: TEST_ORIGIN };
      const listed = (await app.inject({ method: 'GET', url: '/api/orders/old-buyer@example.com', headers: asBuyer })).json() as Order[];
      expect(listed.map((o) => [o._id, o.productId, o.quantity, o.total, o.status])).toEqual([
        [orphan!.id, null, 30, 81, 'placed'],
        [live!.id, product!.id, 20, 54, 'placed'],
      ]);
      const accepted = await app.inject({ method: 'POST', url: `/api/sales/${live!.id}/accept`, headers: asSeller, payload: {} });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const fresh = await app.inject({
        method: 'POST',
        url: '/api/order',
        headers: asBuyer,
        payload: { productId: product!.id, quantity: 10, shipTo: TEST_SHIP_TO },
      });
      expect(fresh.statusCode, fresh.body).toBe(201);
      expect((fresh.json() as Order).number).toBe(`BC-${10000 + orphan!.seq + 1}`);
    }, 120_000);
  });
}
