import { randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import { CATEGORIES, type Category, type Product } from '@bulkcart/contracts';
import { products, type ProductRow } from '../../src/db/schema/index.ts';
import type { Db } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/rows.ts';
import { productPageQuery } from '../../src/modules/products/products.queries.ts';
import type { TestEnv } from './test-app.ts';

/** Rows of search_facet_cells that a count over the products does not give, and the reverse. */
export async function cellsDifferingFromProducts(db: Db): Promise<number> {
  const recount = sql`SELECT category, brandname, minquantity, mainquantity >= minquantity AS in_stock,
                             coalesce(array_agg(shown_price_cents ORDER BY shown_price_cents) FILTER (WHERE shown_price_cents IS NOT NULL), '{}') AS prices,
                             (count(*) FILTER (WHERE shown_price_cents IS NULL))::integer AS unpriced
                        FROM products WHERE unlisted_at IS NULL GROUP BY 1, 2, 3, 4`;
  const cells = sql`SELECT category, brandname, minquantity, in_stock, prices, unpriced FROM search_facet_cells`;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::integer AS n FROM ((${cells} EXCEPT ALL ${recount}) UNION ALL (${recount} EXCEPT ALL ${cells})) differing`,
  );
  return Number(row?.n);
}

/** A body that POST /api/addproduct and PUT /api/updateproduct both accept. */
export function validProductBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    image: 'https://images.example.com/kettle.webp',
    image2: '/images/products/kettle-2.webp',
    image3: '',
    name: 'Electric Kettle 1.7L',
    mainquantity: 500,
    minquantity: 20,
    brandname: 'HomeChef',
    category: 'Home & Kitchen Appliances',
    description: 'Stainless steel kettle, boxed for resale.',
    price: 12,
    rating: 4,
    Content: 'Ships in master cartons of 12.',
    discount: 10,
    ...overrides,
  };
}

/** Who a seeded product belongs to: a signed-up test user, or only an email when no test signs in as its seller. */
export interface ProductOwner {
  id: string | null;
  email: string;
}

/** The seller of products whose owner no test acts as (ordering tests buy them from someone else). */
export const OTHER_SELLER: ProductOwner = { id: null, email: 'seller@example.com' };

let counter = 0;

/**
 * Inserts products straight into the database, so a test depends on the tables and not on the
 * catalog API; `seq` follows insertion order. They stand for products listed through this app, whose
 * write would forget the catalog answers it keeps (lib/answer-cache.ts): so does the seeding.
 */
export async function seedProducts(
  env: Pick<TestEnv, 'db'> & Partial<Pick<TestEnv, 'ctx'>>,
  owner: ProductOwner,
  specs: Array<Partial<typeof products.$inferInsert>>,
): Promise<ProductRow[]> {
  if (specs.length === 0) return [];
  const rows = specs.map((spec) => {
    counter += 1;
    return {
      name: `Seeded product ${counter}`,
      image: `/images/products/seeded-${counter}.webp`,
      brandname: 'SeedBrand',
      category: CATEGORIES[counter % CATEGORIES.length] as Category,
      mainquantity: 1_000,
      minquantity: 10,
      priceCents: 500,
      rating: 3,
      ownerId: owner.id,
      ownerEmail: owner.email,
      ...spec,
    };
  });
  const inserted = await env.db().insert(products).values(rows).returning();
  env.ctx?.catalogAnswers.forgetAll();
  return inserted;
}

export async function seedProduct(
  env: Pick<TestEnv, 'db'> & Partial<Pick<TestEnv, 'ctx'>>,
  owner: ProductOwner,
  spec: Partial<typeof products.$inferInsert> = {},
): Promise<ProductRow> {
  const [row] = await seedProducts(env, owner, [spec]);
  if (!row) throw new Error('seed gave no row');
  return row;
}

export async function readStock(env: Pick<TestEnv, 'db'>, productId: string): Promise<number | undefined> {
  const [row] = await env.db().select({ mainquantity: products.mainquantity }).from(products).where(eq(products.id, productId));
  return row?.mainquantity;
}

export async function readProductRow(env: TestEnv, id: string): Promise<ProductRow | undefined> {
  const [row] = await env.db().select().from(products).where(eq(products.id, id));
  return row;
}

/** Every product id, newest first: what paging through the whole catalog must give back. */
export async function readAllIdsNewestFirst(env: TestEnv): Promise<string[]> {
  const rows = await env.db().select({ id: products.id }).from(products).orderBy(desc(products.seq));
  return rows.map((r) => r.id);
}

/** Follows `Link: <…>; rel="next"` from `firstUrl` to the end, as the web client does. */
export async function readAllPages(env: TestEnv, firstUrl: string, headers: Record<string, string> = {}): Promise<{ pages: Product[][]; links: string[] }> {
  const pages: Product[][] = [];
  const links: string[] = [];
  let url: string | null = firstUrl;
  while (url) {
    const response = await env.request({ method: 'GET', url, headers });
    if (response.statusCode !== 200) throw new Error(`GET ${url} → ${response.statusCode} ${response.body}`);
    pages.push(response.json() as Product[]);
    const link = response.headers.link;
    if (typeof link === 'string') {
      links.push(link);
      const match = /^<([^>]+)>; rel="next"$/.exec(link);
      if (!match?.[1]) throw new Error(`unexpected Link header ${link}`);
      url = match[1];
    } else {
      url = null;
    }
    if (pages.length > 1000) throw new Error('pagination does not end');
  }
  return { pages, links };
}

export const UNKNOWN_ID = randomUUID();

/**
 * The plan of one catalog page query (products.queries.ts), as the planner would run it with a large
 * table: the tests' tables are tiny, so a sequential scan is switched off to ask what it can use.
 */
export async function planOfProductPage(db: Db, filter: Parameters<typeof productPageQuery>[1]): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    const rows = await queryRows<Record<string, string>>(tx, sql`EXPLAIN SELECT * FROM ${productPageQuery(tx, filter)} AS page`);
    return rows.map((row) => Object.values(row)[0]).join('\n');
  });
}
