import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { bearer, signUp, type BenchUser } from '../lib/accounts.ts';
import { forEachDatabase, withSql } from '../lib/databases.ts';
import { readCpuSeconds, readPostmasterPid } from '../lib/cpu.ts';
import { httpRequest, requestJson } from '../lib/http.ts';
import { startServerProcess, type DatabaseTarget } from '../lib/processes.ts';
import { PURCHASE_SERVER_ENV } from '../lib/order-floor.ts';
import { readStatementStats, resetStatementStats, type StatementLine } from '../lib/pg-statements.ts';
import { summarize } from '../lib/stats.ts';
import { monotonicMicros, summarizeCpuProfile, type ProfileSummary, type ProfileWindow } from '../lib/cpu-profile.ts';
import type { BenchContext } from '../lib/context.ts';

/** The checkout measured: ten lines from three sellers (docs/decisions/017-cart-and-checkout.md). */
export const CHECKOUT_SHAPE = { lines: 10, sellers: 3, linesPerSeller: [4, 3, 3] } as const;
const CHECKOUTS = 200;
const WARMUP = 20;

export interface CheckoutRow {
  database: string;
  checkouts: number;
  /** Per checkout, on average (every checkout's with fixed carts). */
  lines: number;
  sellers: number;
  p50: number;
  p99: number;
  mean: number;
  /** Server-side CPU per checkout, µs: our process plus PostgreSQL's, and the two apart. */
  cpuUsPerCheckout: number;
  serverCpuUsPerCheckout: number;
  databaseCpuUsPerCheckout: number;
  cpuUsPerLine: number;
  /** After the run: orders placed = checkouts × sellers, units sold = stock taken, nothing left in the cart. */
  ordersInDatabase: number;
  booksBalance: boolean;
  /** With `--cpu-prof`: the server's main thread over the timed checkouts' requests only. */
  profile?: ProfileSummary;
  /**
   * With `--pg-stats`: what PostgreSQL ran during the timed rounds, the cart's fill and read before
   * each checkout included (the report counts it per checkout).
   */
  statements?: StatementLine[];
}

const SHIP_TO = {
  company: 'Bench Buyer Co',
  line1: '1 Load Street',
  city: 'Austin',
  region: 'TX',
  postalCode: '73301',
  country: 'US',
  phone: '+1 512 555 0100',
};
const INITIAL_STOCK = 1_000_000;

async function listProducts(url: string, seller: BenchUser, count: number, sellerIndex: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { status, json } = await requestJson<{ _id: string }>(`${url}/api/addproduct`, {
      method: 'POST',
      headers: bearer(seller),
      body: JSON.stringify({
        image: 'https://images.example.com/bench.webp',
        name: `Checkout pallet ${sellerIndex + 1}-${i + 1}`,
        sku: `BENCH-${sellerIndex + 1}-${i + 1}`,
        mainquantity: INITIAL_STOCK,
        minquantity: 1,
        brandname: 'BenchBrand',
        category: 'Office Supplies & Stationery',
        price: 3.35 + i,
        rating: 4,
        discount: 10,
      }),
    });
    if (status !== 201) throw new Error(`addproduct → ${status}`);
    ids.push(json._id);
  }
  return ids;
}

/** Three sellers' ten products and one buyer, on one server: what every checkout round buys. */
export interface CheckoutFloor {
  productIds: string[];
  buyer: BenchUser;
  lines: Array<{ productId: string; quantity: number }>;
  /** `--cart-shapes=varied`: each round buys a part of the ten lines (cartOfRound). */
  varied: boolean;
  agent: http.Agent;
  rounds: number;
}

/** The checkout's carts: the ten lines every round, or (`varied`) a different part of them in turn. */
export type CartShapes = 'fixed' | 'varied';

/** The carts a run checks out, as its report's heading and the comparison's measure name them. */
export function describeCarts(shapes: CartShapes): string {
  return shapes === 'varied'
    ? 'varied carts (1–10 lines from 1–3 sellers, 28 shapes)'
    : `a ${CHECKOUT_SHAPE.lines}-line cart from ${CHECKOUT_SHAPE.sellers} sellers`;
}

/**
 * Round `round`'s cart when carts vary, as real buyers' do: 1 to 3 sellers, 1 to all of each one's
 * lines, 28 shapes (one-line and longer orders mixed) every 36 rounds. With one placeholder per value
 * a checkout's statements had a shape, parsed and planned per connection, for each.
 */
export function cartOfRound(floor: CheckoutFloor, round: number): { lines: CheckoutFloor['lines']; sellers: number } {
  if (!floor.varied) return { lines: floor.lines, sellers: CHECKOUT_SHAPE.sellers };
  const sellers = 1 + (round % CHECKOUT_SHAPE.sellers);
  const lines: CheckoutFloor['lines'] = [];
  let first = 0;
  CHECKOUT_SHAPE.linesPerSeller.forEach((count, seller) => {
    const taken = 1 + ((Math.floor(round / CHECKOUT_SHAPE.sellers) + seller) % count);
    if (seller < sellers) lines.push(...floor.lines.slice(first, first + taken));
    first += count;
  });
  return { lines, sellers };
}

export async function setUpCheckoutFloor(url: string, shapes: CartShapes = 'fixed'): Promise<CheckoutFloor> {
  const sellers = await Promise.all(CHECKOUT_SHAPE.linesPerSeller.map((_, i) => signUp(url, `Bench Seller ${i + 1}`, 'seller')));
  let productIds: string[] = [];
  for (const [i, seller] of sellers.entries()) productIds = [...productIds, ...(await listProducts(url, seller, CHECKOUT_SHAPE.linesPerSeller[i] ?? 0, i))];
  const buyer = await signUp(url, 'Bench Buyer', 'buyer');
  return {
    productIds,
    buyer,
    lines: productIds.map((productId, i) => ({ productId, quantity: 1 + (i % 3) })),
    varied: shapes === 'varied',
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    rounds: 0,
  };
}

export interface CheckoutTimes {
  samples: number[];
  serverSeconds: number;
  databaseSeconds: number;
  /** Lines checked out, and orders placed, in these rounds. */
  lines: number;
  orders: number;
  /** Each timed checkout's request, on the monotonic clock a CPU profile counts in. */
  windows: ProfileWindow[];
}

/**
 * `count` rounds on one keep-alive connection: fill the cart with the round's lines (one
 * POST /api/cart/lines), read its total, then check out with it. Only the checkout is timed, and only
 * its CPU (our process, and PostgreSQL's backends) is counted.
 */
export async function runCheckouts(url: string, pid: number, pgParents: number[], floor: CheckoutFloor, count: number): Promise<CheckoutTimes> {
  const headers = bearer(floor.buyer);
  const { agent } = floor;
  const times: CheckoutTimes = { samples: [], serverSeconds: 0, databaseSeconds: 0, lines: 0, orders: 0, windows: [] };
  for (let i = 0; i < count; i++) {
    const round = floor.rounds++;
    const cartLines = cartOfRound(floor, round);
    const filled = await httpRequest(`${url}/api/cart/lines`, { method: 'POST', headers, agent, body: JSON.stringify({ lines: cartLines.lines }) });
    if (filled.status !== 200) throw new Error(`cart → ${filled.status}`);
    const cart = await httpRequest(`${url}/api/cart`, { headers, agent });
    const total = (JSON.parse(cart.body.toString('utf8')) as { total: number }).total;
    const body = JSON.stringify({ expectedTotal: total, poNumber: `BENCH-${round}`, ...(round === 0 ? { shipTo: SHIP_TO } : {}) });
    const cpuServer = readCpuSeconds([pid]);
    const cpuDatabase = readCpuSeconds([], pgParents);
    const started = process.hrtime.bigint();
    const fromMicros = monotonicMicros();
    const answer = await httpRequest(`${url}/api/checkout`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, agent, body });
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    times.windows.push({ fromMicros, toMicros: monotonicMicros() });
    if (answer.status !== 201) throw new Error(`checkout → ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
    times.samples.push(elapsedMs);
    times.lines += cartLines.lines.length;
    times.orders += cartLines.sellers;
    times.serverSeconds += readCpuSeconds([pid]) - cpuServer;
    times.databaseSeconds += readCpuSeconds([], pgParents) - cpuDatabase;
  }
  return times;
}

/** After the rounds: orders = one per seller of each round's cart, stock + units sold = initial on every product, the cart empty. */
export async function checkCheckoutBooks(target: DatabaseTarget, floor: CheckoutFloor): Promise<{ orders: number; balanced: boolean }> {
  const books = await withSql(target, async (query) => {
    const [orders] = await query<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE checkout_id IS NOT NULL`);
    const stock = await query<{ id: string; left: number; sold: string }>(
      `SELECT p.id, p.mainquantity AS left, COALESCE((SELECT sum(l.quantity) FROM order_lines l WHERE l.product_id = p.id), 0) AS sold FROM products p WHERE p.id = ANY($1::uuid[])`,
      [floor.productIds],
    );
    const [cart] = await query<{ n: string }>(`SELECT count(*) AS n FROM cart_lines`);
    return { orders: Number(orders?.n ?? 0), balanced: stock.every((s) => s.left + Number(s.sold) === INITIAL_STOCK) && Number(cart?.n ?? 1) === 0 };
  });
  let placed = 0;
  for (let round = 0; round < floor.rounds; round++) placed += cartOfRound(floor, round).sellers;
  return { orders: books.orders, balanced: books.balanced && books.orders === placed };
}

async function measureOn(context: BenchContext, target: DatabaseTarget, database: string): Promise<CheckoutRow> {
  const server = await startServerProcess({ database: target, name: `checkout-${database}`, env: PURCHASE_SERVER_ENV });
  const pgParents = target.kind === 'postgres' ? [readPostmasterPid(context.pgDataDir)] : [];
  let floor: CheckoutFloor | null = null;
  let times: CheckoutTimes;
  let statements: StatementLine[] | undefined;
  try {
    context.log(`checkout ${database}: three sellers list ten products; one buyer checks out ${WARMUP} + ${CHECKOUTS} times (${context.cartShapes} carts)`);
    floor = await setUpCheckoutFloor(server.url, context.cartShapes);
    await runCheckouts(server.url, server.pid, pgParents, floor, WARMUP);
    const counted = context.hasStatementStats && target.kind === 'postgres';
    if (counted) await resetStatementStats(target);
    times = await runCheckouts(server.url, server.pid, pgParents, floor, CHECKOUTS);
    if (counted) statements = await readStatementStats(target);
  } finally {
    floor?.agent.destroy();
    await server.stop();
  }
  const books = await checkCheckoutBooks(target, floor);
  const profile = server.profileFile ? summarizeCpuProfile(server.profileFile, times.windows) : undefined;
  const cpuUsPerCheckout = ((times.serverSeconds + times.databaseSeconds) / CHECKOUTS) * 1e6;
  return {
    database,
    checkouts: CHECKOUTS,
    lines: times.lines / CHECKOUTS,
    sellers: times.orders / CHECKOUTS,
    ...summarize(times.samples),
    cpuUsPerCheckout,
    serverCpuUsPerCheckout: (times.serverSeconds / CHECKOUTS) * 1e6,
    databaseCpuUsPerCheckout: (times.databaseSeconds / CHECKOUTS) * 1e6,
    cpuUsPerLine: ((times.serverSeconds + times.databaseSeconds) / times.lines) * 1e6,
    ordersInDatabase: books.orders,
    booksBalance: books.balanced,
    ...(profile ? { profile } : {}),
    ...(statements ? { statements } : {}),
  };
}

/** Part 7: a 10-line, 3-seller checkout's latency and CPU per line, on each database. */
export async function measureCheckout(context: BenchContext): Promise<CheckoutRow[]> {
  return forEachDatabase(context, 'checkout', (target, database) => measureOn(context, target, database));
}
