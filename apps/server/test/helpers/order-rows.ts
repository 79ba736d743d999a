import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/rows.ts';

/**
 * Rows written as raw SQL for the migration tests of the dashboard's rollups (0019, 0024), which run on
 * a database migrated only up to the migration under test, where the app's own writers may not fit.
 */

/** Accounts `u-<name>`, each named <Name> with the address <name>@example.com. */
export async function insertAccounts(db: Db, ids: readonly string[]): Promise<void> {
  const rows = ids.map((id) => {
    const name = id.replace(/^u-/, '');
    return sql`(${id}, ${name.charAt(0).toUpperCase() + name.slice(1)}, ${`${name}@example.com`}, false, now(), now())`;
  });
  await db.execute(sql`INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at) VALUES ${sql.join(rows, sql`, `)}`);
}

/** Two listed products, Hinge (2.50) and Bolt (1.00), of the given owners (accounts from insertAccounts). */
export async function insertHingeAndBolt(db: Db, owners: { hinge: string; bolt: string }): Promise<{ hinge: string; bolt: string }> {
  const emailOf = (id: string) => `${id.replace(/^u-/, '')}@example.com`;
  const [hinge, bolt] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO products (name, image, brandname, category, price_cents, mainquantity, minquantity, owner_id, owner_email)
        VALUES ('Hinge', '/h.png', 'B', 'Office Supplies & Stationery', 250, 100, 1, ${owners.hinge}, ${emailOf(owners.hinge)}),
               ('Bolt', '/b.png', 'B', 'Office Supplies & Stationery', 100, 100, 1, ${owners.bolt}, ${emailOf(owners.bolt)})
        RETURNING id`,
  );
  if (!hinge || !bolt) throw new Error('the products were not inserted');
  return { hinge: hinge.id, bolt: bolt.id };
}

/** One order line's values, its total the unit price times the quantity. */
export function lineValues(orderId: string, position: number, productId: string | null, quantity: number, unitCents: number): SQL {
  return sql`(${orderId}::uuid, ${position}, ${productId}::uuid, ${quantity}, ${unitCents}, ${quantity * unitCents}, ${unitCents}, 'P', '/p.png', 'B', 'C', 1)`;
}

/** The lines in one statement. */
export async function insertLines(db: Db, lines: readonly SQL[]): Promise<void> {
  await db.execute(sql`INSERT INTO order_lines (order_id, position, product_id, quantity, unit_price_cents, line_total_cents, list_unit_price_cents,
      product_name, product_image, product_brand, product_category, product_minquantity)
    VALUES ${sql.join([...lines], sql`, `)}`);
}
