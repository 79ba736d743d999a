import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/helpers/test-app.ts';
import { signUpUser } from '../../test/helpers/accounts.ts';
import { seedProduct } from '../../test/helpers/products.ts';
import { queryRows } from './rows.ts';
import type { ProductRow } from './schema/index.ts';

/**
 * Every purchase, cancel and decline changes a product's stock (docs/decisions/027-stock-updates-hot.md).
 * With no index on `mainquantity` or `updated_at`, PostgreSQL writes that change as a heap-only tuple:
 * no new entry in any of the products table's indexes, the GIN search index included.
 */
describeEachDatabase('stock changes are heap-only updates', (env) => {
  let product: ProductRow;

  beforeAll(async () => {
    const seller = await signUpUser(env(), { name: 'Hot Seller' });
    product = await seedProduct(env(), seller, { name: 'Hot Update Crate', mainquantity: 1_000, minquantity: 1 });
  });

  it('no index of products reads mainquantity or updated_at, in its columns, expressions or predicate', async () => {
    const rows = await queryRows<{ name: string; definition: string }>(
      env().db(),
      sql`SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS definition
            FROM pg_index WHERE indrelid = 'products'::regclass`,
    );
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((r) => /mainquantity|updated_at/.test(r.definition)).map((r) => r.definition)).toEqual([]);
  });

  it("the purchase's stock update is counted as a heap-only update", async () => {
    let counts: { updated: number; hot: number } | undefined;
    // The purchase statement's own SET (orders/place-order.ts); the transaction's own counters are
    // read before it ends, and it is rolled back so the product keeps its stock.
    const rolledBack = env()
      .db()
      .transaction(async (tx) => {
        await tx.execute(sql`UPDATE products SET mainquantity = mainquantity - 3, updated_at = now() WHERE id = ${product.id}`);
        [counts] = await queryRows<{ updated: number; hot: number }>(
          tx,
          sql`SELECT n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot FROM pg_stat_xact_user_tables WHERE relid = 'products'::regclass`,
        );
        tx.rollback();
      });
    await expect(rolledBack).rejects.toThrow('Rollback');
    expect(counts).toEqual({ updated: 1, hot: 1 });
  });
});
