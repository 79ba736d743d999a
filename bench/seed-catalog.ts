/**
 * Fast bulk seeding of a large catalog for the scale benchmark: products and orders are generated
 * inside the database (INSERT … SELECT FROM generate_series), in chunks, so 100,000 products take
 * seconds rather than 100,000 round trips. Works on PostgreSQL and PGlite alike.
 *
 * As a script (the accounts must exist; sign them up through the API first):
 *   node --import tsx bench/seed-catalog.ts --products=100000 --seller-email=S --buyer-email=B \
 *        (--database-url=postgres://… | --data-dir=./data) [--buyer-orders=1000]
 * It tops the catalog up to --products, so running it twice does not double it.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { CATEGORIES } from '@bulkcart/contracts';
import { withSql, type Query } from './lib/databases.ts';

export interface CatalogSeed {
  products: number;
  /** The signed-up seller whose own list is measured: owns one product in 20. */
  seller: { id: string; email: string };
  /** The signed-up buyer whose cart is measured. */
  buyer: { id: string; email: string; name: string };
  buyerOrders: number;
}

const OTHER_SELLERS = 19;
const OTHER_BUYERS = 200;
const CHUNK = 20_000;

async function insertBenchUsers(query: Query): Promise<void> {
  await query(
    `INSERT INTO "user" (id, name, email)
     SELECT 'bench-seller-' || g, 'Bench seller ' || g, 'bench-seller-' || g || '@bench.test' FROM generate_series(1, $1::int) g
     UNION ALL
     SELECT 'bench-buyer-' || g, 'Bench buyer ' || g, 'bench-buyer-' || g || '@bench.test' FROM generate_series(1, $2::int) g
     ON CONFLICT (id) DO NOTHING`,
    [OTHER_SELLERS, OTHER_BUYERS],
  );
}

/**
 * Names are built from 23 adjectives × 41 nouns so that search meets a real vocabulary: a noun is a
 * common word (~2,400 products at 100,000), and every 10,000th product is a "Zeppelin" (a rare one).
 */
const ADJECTIVES = [
  'Heavy',
  'Compact',
  'Premium',
  'Budget',
  'Industrial',
  'Classic',
  'Smart',
  'Eco',
  'Deluxe',
  'Portable',
  'Wireless',
  'Steel',
  'Bamboo',
  'Cotton',
  'Glass',
  'Ceramic',
  'Plastic',
  'Leather',
  'Rubber',
  'Wooden',
  'Organic',
  'Vintage',
  'Ergonomic',
];
const NOUNS = [
  'Gloves',
  'Stapler',
  'Paper',
  'Kettle',
  'Blender',
  'Drill',
  'Hammer',
  'Lamp',
  'Chair',
  'Desk',
  'Notebook',
  'Pen',
  'Marker',
  'Backpack',
  'Jacket',
  'Sneakers',
  'Scarf',
  'Shampoo',
  'Lotion',
  'Toothbrush',
  'Headphones',
  'Charger',
  'Speaker',
  'Keyboard',
  'Mouse',
  'Monitor',
  'Cable',
  'Toaster',
  'Pan',
  'Knife',
  'Mug',
  'Towel',
  'Wrench',
  'Saw',
  'Ladder',
  'Helmet',
  'Goggles',
  'Folder',
  'Envelope',
  'Scissors',
  'Tape',
];

/**
 * Product g: category g mod 6; one in four has MOQ above 100 (the "available" filter); one in eleven
 * is unrated; ratings otherwise spread 1–5; every 20th belongs to the measured seller.
 */
async function insertProducts(query: Query, from: number, to: number, seller: CatalogSeed['seller']): Promise<void> {
  await query(
    `INSERT INTO products (name, image, brandname, category, description, content, price_cents, rating, discount,
                           mainquantity, minquantity, owner_id, owner_email)
     SELECT ($6::text[])[1 + g % ${ADJECTIVES.length}] || ' ' || ($7::text[])[1 + g % ${NOUNS.length}]
              || CASE WHEN g % 10000 = 0 THEN ' Zeppelin' ELSE '' END || ' ' || g,
            '/images/products/bench-' || (g % 60) || '.webp',
            'Brand ' || (g % 97),
            ($1::text[])[1 + g % 6],
            'Wholesale lot ' || g || ', boxed for resale.',
            'Ships in master cartons of ' || (6 + g % 20) || '.',
            100 * (1 + g % 500),
            CASE WHEN g % 11 = 0 THEN NULL ELSE 1 + (g * 7) % 5 END,
            (g % 4) * 10,
            1000 + g % 5000,
            CASE g % 4 WHEN 0 THEN 150 WHEN 1 THEN 10 WHEN 2 THEN 50 ELSE 100 END,
            CASE WHEN g % 20 = 0 THEN $4 ELSE 'bench-seller-' || (1 + g % ${OTHER_SELLERS}) END,
            CASE WHEN g % 20 = 0 THEN $5 ELSE 'bench-seller-' || (1 + g % ${OTHER_SELLERS}) || '@bench.test' END
       FROM generate_series($2::int, $3::int) g`,
    [CATEGORIES, from, to, seller.id, seller.email, ADJECTIVES, NOUNS],
  );
}

/**
 * One order per product, oldest product first: the measured buyer's `buyerOrders` are spread evenly
 * through them and the rest belong to the other buyers, so at 100,000 products the cart is 1% of a
 * table that grew with the catalog, not simply its newest rows.
 */
async function insertOrders(query: Query, buyer: CatalogSeed['buyer'], buyerOrders: number, products: number): Promise<void> {
  const step = Math.max(1, Math.floor(products / Math.max(1, buyerOrders)));
  await query(
    `INSERT INTO orders (buyer_id, buyer_email, buyer_name, product_id, quantity, unit_price_cents, line_total_cents,
                         list_unit_price_cents, product_name, product_image, product_brand, product_category,
                         product_minquantity, total_cents, seller_id, seller_name)
     SELECT CASE WHEN q.mine THEN $1 ELSE 'bench-buyer-' || (1 + q.rn % ${OTHER_BUYERS}) END,
            CASE WHEN q.mine THEN $2 ELSE 'bench-buyer-' || (1 + q.rn % ${OTHER_BUYERS}) || '@bench.test' END,
            CASE WHEN q.mine THEN $3 ELSE 'Bench buyer' END,
            q.id, q.minquantity, q.price_cents, q.price_cents::bigint * q.minquantity, q.price_cents,
            q.name, q.image, q.brandname, q.category, q.minquantity, q.price_cents::bigint * q.minquantity,
            q.owner_id, q.owner_email
       FROM (SELECT p.*, rn % $4 = 0 AND rn / $4 <= $5 AS mine
               FROM (SELECT p.*, row_number() OVER (ORDER BY p.seq) AS rn FROM products p) p) q
      ORDER BY q.seq`,
    [buyer.id, buyer.email, buyer.name, step, buyerOrders],
  );
  // Each order's one line (migration 0004 keeps lines in order_lines).
  await query(
    `INSERT INTO order_lines (order_id, position, product_id, quantity, unit_price_cents, line_total_cents,
                              list_unit_price_cents, product_name, product_image, product_brand, product_category,
                              product_minquantity)
     SELECT o.id, 1, o.product_id, o.quantity, o.unit_price_cents, o.line_total_cents, o.list_unit_price_cents,
            o.product_name, o.product_image, o.product_brand, o.product_category, o.product_minquantity
       FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id)`,
  );
}

export async function seedCatalog(query: Query, seed: CatalogSeed): Promise<{ products: number; orders: number; seconds: number }> {
  const started = Date.now();
  await insertBenchUsers(query);
  const [{ n: existing } = { n: 0 }] = await query<{ n: number }>('SELECT count(*)::int AS n FROM products');
  for (let from = existing + 1; from <= seed.products; from += CHUNK) {
    await insertProducts(query, from, Math.min(seed.products, from + CHUNK - 1), seed.seller);
  }
  await query('DELETE FROM orders WHERE buyer_id = $1 OR buyer_id LIKE $2', [seed.buyer.id, 'bench-buyer-%']);
  await insertOrders(query, seed.buyer, seed.buyerOrders, seed.products);
  // VACUUM sets the visibility map, which index-only scans (search's facet counts) rely on, as
  // autovacuum would on a live database.
  await query('VACUUM ANALYZE products');
  await query('VACUUM ANALYZE search_terms');
  // The facet cells were rewritten once per product inserted, all in each chunk's transaction, so no
  // page pruning could reclaim the old versions: 3,394 pages for 1,164 rows before this VACUUM.
  await query('VACUUM ANALYZE search_facet_cells');
  await query('ANALYZE orders');
  const [{ products, orders } = { products: 0, orders: 0 }] = await query<{ products: number; orders: number }>(
    'SELECT (SELECT count(*)::int FROM products) AS products, (SELECT count(*)::int FROM orders) AS orders',
  );
  return { products, orders, seconds: (Date.now() - started) / 1000 };
}

async function runAsScript(): Promise<void> {
  const { values } = parseArgs({
    options: {
      products: { type: 'string', default: '100000' },
      'buyer-orders': { type: 'string', default: '1000' },
      'seller-email': { type: 'string' },
      'buyer-email': { type: 'string' },
      'database-url': { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  if (!values['seller-email'] || !values['buyer-email'] || Boolean(values['database-url']) === Boolean(values['data-dir'])) {
    throw new Error('usage: --seller-email=… --buyer-email=… and one of --database-url=… or --data-dir=…');
  }
  const target = values['database-url']
    ? { kind: 'postgres' as const, url: values['database-url'] }
    : { kind: 'pglite' as const, dataDir: values['data-dir'] as string };
  const result = await withSql(target, async (query) => {
    const accounts = await query<{ id: string; email: string; name: string }>('SELECT id, email, name FROM "user" WHERE email = ANY($1::text[])', [
      [values['seller-email'], values['buyer-email']],
    ]);
    const seller = accounts.find((a) => a.email === values['seller-email']);
    const buyer = accounts.find((a) => a.email === values['buyer-email']);
    if (!seller || !buyer) throw new Error('sign the seller and the buyer up first (POST /api/auth/sign-up/email)');
    return seedCatalog(query, { products: Number(values.products), seller, buyer, buyerOrders: Number(values['buyer-orders']) });
  });
  console.log(`seeded: ${result.products} products, ${result.orders} orders in ${result.seconds.toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runAsScript().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
