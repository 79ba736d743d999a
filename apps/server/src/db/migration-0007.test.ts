import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runMigrations } from './migrate.ts';
import { queryRows } from './rows.ts';
import { openDatabaseBefore } from '../../test/helpers/migrations.ts';
import { DATABASE_KINDS } from '../../test/helpers/test-app.ts';

interface Cell {
  category: string;
  brandname: string;
  minquantity: number;
  in_stock: boolean;
  prices: number[];
  unpriced: number;
}

for (const kind of DATABASE_KINDS) {
  describe(`migration 0007 (search facet cells) of an existing catalog [${kind}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('counts every product already there into its cell, and keeps counting after', async () => {
      const { database } = await openDatabaseBefore(kind, '0007', cleanups);

      // A catalog as 0006 left it: two products sharing a cell (prices out of order), one without a
      // price, one out of stock (stock below its MOQ).
      const db = database.db;
      await db.execute(sql`INSERT INTO products (name, image, brandname, category, price_cents, mainquantity, minquantity, owner_email) VALUES
        ('Kettle A', '/a.webp', 'HomeChef', 'Home & Kitchen Appliances', 900, 100, 10, 'old@example.com'),
        ('Kettle B', '/b.webp', 'HomeChef', 'Home & Kitchen Appliances', 450, 100, 10, 'old@example.com'),
        ('Kettle C', '/c.webp', 'HomeChef', 'Home & Kitchen Appliances', NULL, 100, 10, 'old@example.com'),
        ('Drill', '/d.webp', 'ForgeWorks', 'Industrial Machinery & Tools', 2500, 3, 5, 'old@example.com')`);

      await runMigrations(database);
      const cells = () =>
        queryRows<Cell>(
          db,
          sql`SELECT category, brandname, minquantity, in_stock, prices, unpriced FROM search_facet_cells ORDER BY category, brandname, in_stock`,
        );
      expect(await cells()).toEqual([
        { category: 'Home & Kitchen Appliances', brandname: 'HomeChef', minquantity: 10, in_stock: true, prices: [450, 900], unpriced: 1 },
        { category: 'Industrial Machinery & Tools', brandname: 'ForgeWorks', minquantity: 5, in_stock: false, prices: [2500], unpriced: 0 },
      ]);

      // The triggers the migration replaced keep both jobs: a restock moves the drill to the "in stock" cell and starts a new catalog version.
      const [{ version } = { version: 0 }] = await queryRows<{ version: string }>(db, sql`SELECT version FROM search_catalog_version`);
      await db.execute(sql`UPDATE products SET mainquantity = 50 WHERE name = 'Drill'`);
      expect((await cells()).filter((c) => c.brandname === 'ForgeWorks')).toEqual([
        { category: 'Industrial Machinery & Tools', brandname: 'ForgeWorks', minquantity: 5, in_stock: true, prices: [2500], unpriced: 0 },
      ]);
      const [after] = await queryRows<{ version: string }>(db, sql`SELECT version FROM search_catalog_version`);
      expect(Number(after?.version)).toBe(Number(version) + 1);
    });
  });
}
