import { randomUUID } from 'node:crypto';
import type { AutocannonRequest } from 'autocannon';
import { bearer, type BenchUser } from './accounts.ts';
import { withSql, type Query } from './databases.ts';
import type { DatabaseTarget } from './processes.ts';
import { requestJson } from './http.ts';
import type { LoadResult } from './load.ts';

export interface FloorProduct {
  id: string;
  initialStock: number;
  /** A product with little stock, meant to sell out during the run (409s then, never oversell). */
  isScarce: boolean;
}

export const ROOMY_STOCK = 1_000_000;

/**
 * Purchases are measured with e-mail on, so every order writes its seller's notification and its
 * outbox row in its transaction, as in production. Nothing listens on the discard port and the
 * deliverer's first pass is an hour away: no mail is attempted during a run.
 */
export const PURCHASE_SERVER_ENV = { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_INTERVAL_MS: '3600000' };
export const SCARCE_STOCK = 400;

/** A seller lists products through the API, as a real seller would (MOQ 1, so any buyer may order 1–3). */
export async function listFloorProducts(baseUrl: string, seller: BenchUser, spec: { roomy: number; scarce: number }): Promise<FloorProduct[]> {
  const products: FloorProduct[] = [];
  const kinds = [...Array.from({ length: spec.roomy }, () => false), ...Array.from({ length: spec.scarce }, () => true)];
  for (const [i, isScarce] of kinds.entries()) {
    const initialStock = isScarce ? SCARCE_STOCK : ROOMY_STOCK;
    const { json } = await requestJson<{ _id: string }>(`${baseUrl}/api/addproduct`, {
      method: 'POST',
      headers: bearer(seller),
      body: JSON.stringify({
        image: 'https://images.example.com/bench.webp',
        name: `${isScarce ? 'Scarce' : 'Bench'} pallet ${i + 1}`,
        mainquantity: initialStock,
        minquantity: 1,
        brandname: 'BenchBrand',
        category: 'Office Supplies & Stationery',
        price: 12,
        rating: 4,
        discount: 10,
      }),
    });
    products.push({ id: json._id, initialStock, isScarce });
  }
  return products;
}

/** Every bench order ships here (an order needs a destination since the order workflow). */
const BENCH_SHIP_TO = {
  company: 'Bench Buyer Co',
  line1: '1 Load Street',
  city: 'Austin',
  region: 'TX',
  postalCode: '73301',
  country: 'US',
  phone: '+1 512 555 0100',
};

/**
 * What one connection sends: one buyer (its own bearer token), a random product of the floor, 1–3
 * units, and a fresh Idempotency-Key per order, as the web app's checkout does.
 */
export function orderRequestsFor(buyers: BenchUser[], products: FloorProduct[]) {
  return (connection: number): AutocannonRequest[] => {
    const buyer = buyers[connection % buyers.length] as BenchUser;
    const headers = { ...bearer(buyer), 'content-type': 'application/json' };
    return [
      {
        method: 'POST',
        path: '/api/order',
        headers,
        setupRequest: (request) => {
          const product = products[Math.floor(Math.random() * products.length)] as FloorProduct;
          return {
            ...request,
            headers: { ...headers, 'idempotency-key': randomUUID() },
            body: JSON.stringify({ productId: product.id, quantity: 1 + Math.floor(Math.random() * 3), shipTo: BENCH_SHIP_TO }),
          };
        },
      },
    ];
  };
}

export interface StockCheck {
  /** Orders the clients were told were placed (201). */
  placed: number;
  /**
   * Requests still in flight when a timed run stops are cut off by the load generator: the server
   * may still complete them, so the database can hold up to this many orders more than 201s seen.
   */
  cutOffAtMost: number;
  /** Live orders in the database for these products. */
  ordersInDatabase: number;
  oversold: number;
  /** Live orders without their seller's notification or its e-mail in the outbox. */
  unnotified: number;
  /** Products whose stock + sold differs from the initial stock. */
  unbalanced: number;
  scarceSoldOut: boolean;
  lines: Array<{ id: string; initial: number; stock: number; sold: number; orders: number }>;
  ok: boolean;
}

export function countPlaced(results: LoadResult[]): number {
  return results.reduce((sum, r) => sum + (r.statusCounts['201'] ?? 0), 0);
}

/** Lets requests cut off at the end of a run finish on the server before anything is stopped or read. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 2_000));
}

/**
 * After a run of writes on PostgreSQL: vacuums its database and checkpoints the cluster, so the
 * clean-up its writes left (autovacuum, the checkpointer) runs now, not inside the next run's CPU
 * figures. Without it, whichever side ran second in a round of a comparison read 10–25 % more CPU per
 * order on this machine (docs/benchmarks.md, history).
 */
export async function tidyAfterWrites(target: DatabaseTarget): Promise<void> {
  if (target.kind !== 'postgres') return;
  await withSql(target, async (query) => {
    await query('VACUUM (ANALYZE)');
    await query('CHECKPOINT');
  });
}

/** Reads the database after the run: nothing oversold, stock + sold = initial, one order per 201. */
export async function checkStock(query: Query, products: FloorProduct[], placed: number, cutOffAtMost: number): Promise<StockCheck> {
  const rows = await query<{ id: string; stock: number; sold: string; orders: string }>(
    `SELECT p.id, p.mainquantity AS stock,
            COALESCE(SUM(o.quantity) FILTER (WHERE o.cancelled_at IS NULL), 0) AS sold,
            COUNT(o.id) FILTER (WHERE o.cancelled_at IS NULL) AS orders
       FROM products p LEFT JOIN orders o ON o.product_id = p.id
      WHERE p.id = ANY($1::uuid[])
      GROUP BY p.id, p.mainquantity`,
    [products.map((p) => p.id)],
  );
  const lines = products.map((product) => {
    const row = rows.find((r) => r.id === product.id);
    return {
      id: product.id,
      initial: product.initialStock,
      stock: row?.stock ?? Number.NaN,
      sold: Number(row?.sold ?? NaN),
      orders: Number(row?.orders ?? NaN),
    };
  });
  const ordersInDatabase = lines.reduce((sum, l) => sum + l.orders, 0);
  const oversold = lines.filter((l) => l.sold > l.initial || l.stock < 0).length;
  const unbalanced = lines.filter((l) => l.stock + l.sold !== l.initial).length;
  const scarce = lines.filter((l, i) => products[i]?.isScarce);
  const scarceSoldOut = scarce.length > 0 && scarce.every((l) => l.stock < 3);
  const ordersMatch = ordersInDatabase >= placed && ordersInDatabase <= placed + cutOffAtMost;
  const [told] = await query<{ n: string }>(
    `SELECT count(*) AS n FROM orders o
      WHERE o.product_id = ANY($1::uuid[]) AND o.cancelled_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM notifications n JOIN email_outbox e ON e.notification_id = n.id WHERE n.order_id = o.id)`,
    [products.map((p) => p.id)],
  );
  const unnotified = Number(told?.n ?? NaN);
  return {
    placed,
    cutOffAtMost,
    ordersInDatabase,
    oversold,
    unnotified,
    unbalanced,
    scarceSoldOut,
    lines,
    ok: oversold === 0 && unbalanced === 0 && unnotified === 0 && ordersMatch,
  };
}
