import { beforeAll, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { ORDERS_EXPORT_COLUMNS, type Dashboard, type DashboardKpis, type MeResponse, type Order } from '@bulkcart/contracts';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, TEST_SHIP_TO, type TestUser } from '../../../test/helpers/accounts.ts';
import { readStock, seedProduct } from '../../../test/helpers/products.ts';
import { orderEvents, orders } from '../../db/schema/orders.ts';
import { products } from '../../db/schema/catalog.ts';
import { runOrderSweep } from '../orders/order-sweep.ts';

/**
 * The seller's dashboard: known orders placed, accepted, shipped, cancelled, declined and expired at
 * known instants (the clock is the test's; the rows' instants are set as if the clock had been there),
 * and every figure checked against a small model of those orders computed here, not by the server's SQL.
 */

// Wednesday 18 March 2026, 15:00 UTC: "today" for every period.
const NOW = new Date('2026-03-18T15:00:00Z');
const HOUR = 3_600_000;

type Who = { cookie: string } | Record<string, never>;

interface Placed {
  id: string;
  buyer: string;
  seller: string;
  product: string;
  quantity: number;
  cents: number;
  placedAt: Date;
  acceptedAt?: Date;
  shippedAt?: Date;
  shipBy?: string;
  status: Order['status'];
}

const day = (iso: string) => iso.slice(0, 10);

describeEachDatabase('seller dashboard: GET /api/seller/dashboard', (env) => {
  let seller: TestUser;
  let otherSeller: TestUser;
  let stranger: TestUser;
  let buyers: TestUser[];
  const product: Record<'a' | 'b' | 'c' | 'd' | 'x', { id: string; cents: number; stock: number; name: string }> = {} as never;
  const placed: Placed[] = [];

  const call = (url: string, who: Who) => env().request({ method: 'GET', url, headers: who });
  const post = (url: string, who: Who, payload: Record<string, unknown> = {}) => env().request({ method: 'POST', url, headers: who, payload });

  async function place(buyer: TestUser, key: keyof typeof product, quantity: number, at: string): Promise<Placed> {
    const response = await post('/api/order', asUser(buyer), { productId: product[key].id, quantity });
    expect(response.statusCode, response.body).toBe(201);
    const order = response.json() as Order;
    const placedAt = new Date(at);
    await env().db().update(orders).set({ createdAt: placedAt }).where(eq(orders.id, order._id));
    await env()
      .db()
      .update(orderEvents)
      .set({ createdAt: placedAt })
      .where(and(eq(orderEvents.orderId, order._id), eq(orderEvents.toStatus, 'placed')));
    const row: Placed = {
      id: order._id,
      buyer: buyer.id,
      seller: key === 'x' ? otherSeller.id : seller.id,
      product: product[key].id,
      quantity,
      cents: product[key].cents * quantity,
      placedAt,
      status: 'placed',
    };
    placed.push(row);
    return row;
  }

  /** Sets when the transition happened, as if the clock had read `at`. */
  async function dateEvent(order: Placed, to: 'accepted' | 'shipped', at: string): Promise<void> {
    // The transition itself wrote the instant on the order; the test then moves it to its own clock.
    const [row] = await env().db().select({ acceptedAt: orders.acceptedAt, shippedAt: orders.shippedAt }).from(orders).where(eq(orders.id, order.id));
    expect(to === 'accepted' ? row?.acceptedAt : row?.shippedAt).toBeInstanceOf(Date);
    await env()
      .db()
      .update(orderEvents)
      .set({ createdAt: new Date(at) })
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.toStatus, to)));
    await env()
      .db()
      .update(orders)
      .set(to === 'accepted' ? { acceptedAt: new Date(at) } : { shippedAt: new Date(at) })
      .where(eq(orders.id, order.id));
  }

  async function accept(order: Placed, at: string, shipBy: string, who = seller): Promise<void> {
    expect((await post(`/api/sales/${order.id}/accept`, asUser(who))).statusCode).toBe(200);
    await env().db().update(orders).set({ shipBy }).where(eq(orders.id, order.id));
    await dateEvent(order, 'accepted', at);
    Object.assign(order, { status: 'accepted', acceptedAt: new Date(at), shipBy });
  }

  async function ship(order: Placed, at: string): Promise<void> {
    expect((await post(`/api/sales/${order.id}/ship`, asUser(seller), { carrier: 'UPS', tracking: '1Z999' })).statusCode).toBe(200);
    await dateEvent(order, 'shipped', at);
    Object.assign(order, { status: 'shipped', shippedAt: new Date(at) });
  }

  beforeAll(async () => {
    env().ctx.clock = () => NOW;
    [seller, otherSeller, stranger, ...buyers] = await Promise.all([
      signUpUser(env(), { name: 'Dash Seller' }),
      signUpUser(env(), { name: 'Other Seller' }),
      signUpUser(env(), { name: 'Stranger' }),
      signUpUser(env(), { name: 'Buyer One' }),
      signUpUser(env(), { name: 'Buyer Two' }),
      signUpUser(env(), { name: 'Buyer Three' }),
    ]);
    const specs = {
      a: { name: 'Anchor Bolts', priceCents: 250, mainquantity: 1000, owner: seller },
      // A name a spreadsheet would run as a formula: the export must show it as text.
      b: { name: '=Brass Hinges', priceCents: 1000, mainquantity: 20, owner: seller },
      c: { name: 'Copper Wire', priceCents: 400, mainquantity: 0, owner: seller },
      d: { name: 'Dowels', priceCents: 100, mainquantity: 500, owner: seller },
      x: { name: 'Other Seller Xylophone', priceCents: 300, mainquantity: 1000, owner: otherSeller },
    } as const;
    for (const [key, spec] of Object.entries(specs)) {
      const row = await seedProduct(
        env(),
        { id: spec.owner.id, email: spec.owner.email },
        { name: spec.name, priceCents: spec.priceCents, mainquantity: spec.mainquantity, minquantity: 1, discount: 0, priceBreaks: [] },
      );
      product[key as keyof typeof product] = { id: row.id, cents: spec.priceCents, stock: spec.mainquantity, name: spec.name };
    }
    const [b1, b2, b3] = buyers as [TestUser, TestUser, TestUser];

    // Before both 7-day periods (inside the 30-day one): accepted, never shipped, now late.
    const o0 = await place(b3, 'a', 4, '2026-02-20T12:00:00Z');
    await accept(o0, '2026-02-20T13:00:00Z', '2026-02-24');
    // The previous 7 days (5–11 March).
    const o1 = await place(b1, 'a', 10, '2026-03-06T10:00:00Z');
    await accept(o1, '2026-03-06T14:00:00Z', '2026-03-09');
    await ship(o1, '2026-03-07T10:00:00Z');
    const o2 = await place(b2, 'b', 2, '2026-03-11T23:59:59Z');
    expect((await env().request({ method: 'DELETE', url: `/api/order/${o2.id}`, headers: asUser(b2) })).statusCode).toBe(200);
    o2.status = 'cancelled';
    // The current 7 days (12–18 March); the first at the period's first instant.
    const c1 = await place(b1, 'a', 20, '2026-03-12T00:00:00Z');
    await accept(c1, '2026-03-12T03:00:00Z', '2026-03-16');
    await ship(c1, '2026-03-13T03:00:00Z');
    const c2 = await place(b3, 'b', 3, '2026-03-14T08:00:00Z');
    await accept(c2, '2026-03-14T09:00:00Z', '2026-03-16');
    await ship(c2, '2026-03-17T12:00:00Z');
    const c3 = await place(b2, 'a', 8, '2026-03-18T14:00:00Z');
    const c4 = await place(b2, 'b', 1, '2026-03-15T10:00:00Z');
    expect((await post(`/api/sales/${c4.id}/decline`, asUser(seller), { reason: 'Out of season' })).statusCode).toBe(200);
    c4.status = 'declined';
    const c5 = await place(b1, 'b', 5, '2026-03-16T10:00:00Z');
    await accept(c5, '2026-03-16T20:00:00Z', '2026-03-18');
    const c6 = await place(b3, 'a', 6, '2026-03-12T09:00:00Z');
    // Another seller's sale in the period, to a buyer of ours: never counted for us.
    const x1 = await place(b1, 'x', 7, '2026-03-15T10:00:00Z');
    await accept(x1, '2026-03-15T11:00:00Z', '2026-03-17', otherSeller);
    // The sweep, at the test's clock, cancels c6 (three business days without an answer).
    const swept = await runOrderSweep(env().db(), env().config, NOW);
    expect(swept.cancelled).toBe(1);
    c6.status = 'cancelled';
    expect(c3.status).toBe('placed');
  });

  // ---- The model: what the seller's orders add up to, computed from the list above. ----

  const mine = () => placed.filter((o) => o.seller === seller.id);
  const isCounted = (o: Placed) => o.status !== 'cancelled' && o.status !== 'declined';
  const inRange = (o: Placed, from: string, toIncl: string) => day(o.placedAt.toISOString()) >= from && day(o.placedAt.toISOString()) <= toIncl;

  function expectedKpis(from: string, to: string): DashboardKpis {
    const list = mine().filter((o) => inRange(o, from, to) && isCounted(o));
    const cents = list.reduce((s, o) => s + o.cents, 0);
    const buyerIds = new Set(list.map((o) => o.buyer));
    const before = new Set(
      mine()
        .filter((o) => isCounted(o) && day(o.placedAt.toISOString()) < from)
        .map((o) => o.buyer),
    );
    return {
      netSales: cents / 100,
      orders: list.length,
      units: list.reduce((s, o) => s + o.quantity, 0),
      averageOrderValue: list.length ? Math.round(cents / list.length) / 100 : 0,
      buyers: buyerIds.size,
      repeatBuyers: [...buyerIds].filter((b) => before.has(b)).length,
    };
  }

  function median(values: number[]): number | null {
    if (values.length === 0) return null;
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    const m = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    return Math.round(m * 10) / 10;
  }

  async function dashboard(period?: string, who: TestUser = seller): Promise<Dashboard> {
    const response = await call(`/api/seller/dashboard${period ? `?period=${period}` : ''}`, asUser(who));
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Dashboard;
  }

  it("adds up the last 7 days and the 7 before them, to the cent, without cancelled, declined or other sellers' orders", async () => {
    const d = await dashboard('7d');
    expect(d).toMatchObject({ period: '7d', from: '2026-03-12', to: '2026-03-18', previousFrom: '2026-03-05', previousTo: '2026-03-11', timeZone: 'UTC' });
    expect(d.kpis).toEqual(expectedKpis('2026-03-12', '2026-03-18'));
    expect(d.previous).toEqual(expectedKpis('2026-03-05', '2026-03-11'));
    // The same figures written out, so that a wrong model cannot agree with a wrong server.
    expect(d.kpis).toEqual({ netSales: 150, orders: 4, units: 36, averageOrderValue: 37.5, buyers: 3, repeatBuyers: 2 });
    expect(d.previous).toEqual({ netSales: 25, orders: 1, units: 10, averageOrderValue: 25, buyers: 1, repeatBuyers: 0 });
  });

  it('draws one point a day with the empty days, and the 30-day period reaches back to 17 February', async () => {
    const d = await dashboard('7d');
    const days = ['2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15', '2026-03-16', '2026-03-17', '2026-03-18'];
    expect(d.series).toEqual(
      days.map((start) => {
        const list = mine().filter((o) => isCounted(o) && day(o.placedAt.toISOString()) === start);
        return { start, netSales: list.reduce((s, o) => s + o.cents, 0) / 100, orders: list.length };
      }),
    );
    const month = await dashboard();
    expect(month).toMatchObject({ period: '30d', from: '2026-02-17', to: '2026-03-18', previousFrom: '2026-01-18', previousTo: '2026-02-16' });
    expect(month.series).toHaveLength(30);
    expect(month.kpis).toEqual(expectedKpis('2026-02-17', '2026-03-18'));
    expect(month.series.reduce((s, p) => s + Math.round(p.netSales * 100), 0)).toBe(Math.round(month.kpis.netSales * 100));
    expect(month.previous).toEqual({ netSales: 0, orders: 0, units: 0, averageOrderValue: 0, buyers: 0, repeatBuyers: 0 });
  });

  it('buckets 90 days by week from Monday and 12 months by calendar month', async () => {
    const quarter = await dashboard('90d');
    expect(quarter.from).toBe('2025-12-19');
    // The Mondays from the one before 19 December to the one before today; the first bucket starts on the period's first day.
    const mondays: string[] = [];
    for (let t = Date.parse('2025-12-15T00:00:00Z'); t <= NOW.getTime(); t += 7 * 24 * HOUR) mondays.push(day(new Date(t).toISOString()));
    expect(quarter.series.map((p) => p.start)).toEqual(['2025-12-19', ...mondays.slice(1)]);
    const week = (start: string) => quarter.series.find((p) => p.start === start);
    expect(week('2026-03-09')).toEqual({ start: '2026-03-09', netSales: 80, orders: 2 }); // c1 (50.00) and c2 (30.00)
    expect(week('2026-03-02')).toEqual({ start: '2026-03-02', netSales: 25, orders: 1 }); // o1; o2 was cancelled
    expect(week('2026-03-16')).toEqual({ start: '2026-03-16', netSales: 70, orders: 2 }); // c5 and c3
    expect(quarter.series.reduce((s, p) => s + p.orders, 0)).toBe(quarter.kpis.orders);

    const year = await dashboard('12m');
    expect(year).toMatchObject({ from: '2025-04-01', to: '2026-03-18', previousFrom: '2024-04-01', previousTo: '2025-03-18' });
    expect(year.series.map((p) => p.start)).toEqual(
      ['2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03'].map(
        (m) => `${m}-01`,
      ),
    );
    expect(year.series.at(-2)).toEqual({ start: '2026-02-01', netSales: 10, orders: 1 });
    expect(year.series.at(-1)).toEqual({ start: '2026-03-01', netSales: 175, orders: 5 });
  });

  it('ranks products by net sales, and times fulfilment from the timeline', async () => {
    const d = await dashboard('7d');
    expect(d.topProducts).toEqual([
      { productId: product.b.id, name: '=Brass Hinges', netSales: 80, units: 8, unlisted: false },
      { productId: product.a.id, name: 'Anchor Bolts', netSales: 70, units: 28, unlisted: false },
    ]);
    const period = mine().filter((o) => inRange(o, '2026-03-12', '2026-03-18'));
    const hours = (a?: Date, b?: Date) => (a && b ? [(b.getTime() - a.getTime()) / HOUR] : []);
    const shipped = period.filter((o) => o.shippedAt);
    const late = shipped.filter((o) => day(o.shippedAt!.toISOString()) > o.shipBy!);
    expect(d.fulfilment).toEqual({
      medianHoursToAccept: median(period.flatMap((o) => hours(o.placedAt, o.acceptedAt))),
      medianHoursToShip: median(period.flatMap((o) => hours(o.acceptedAt, o.shippedAt))),
      shipped: shipped.length,
      shippedLate: late.length,
      lateShare: late.length / shipped.length,
      expiredUnaccepted: 1,
    });
    // 3, 1 and 10 hours to accept; 24 and 75 hours to ship; c2 shipped the day after its ship-by date.
    expect(d.fulfilment).toMatchObject({ medianHoursToAccept: 3, medianHoursToShip: 49.5, shipped: 2, shippedLate: 1, lateShare: 0.5 });
  });

  it("lists the products that run out within 14 days at the period's rate, and the sold-out ones, and the queue", async () => {
    const d = await dashboard('7d');
    const stockOf = (key: 'a' | 'b') =>
      product[key].stock -
      mine()
        .filter((o) => o.product === product[key].id && isCounted(o))
        .reduce((s, o) => s + o.quantity, 0);
    expect(await readStock(env(), product.b.id)).toBe(stockOf('b'));
    const soldB = mine()
      .filter((o) => o.product === product.b.id && isCounted(o) && inRange(o, '2026-03-12', '2026-03-18'))
      .reduce((s, o) => s + o.quantity, 0);
    expect(d.lowStock).toEqual([
      { productId: product.c.id, name: 'Copper Wire', stock: 0, daysOfCover: 0 },
      { productId: product.b.id, name: '=Brass Hinges', stock: stockOf('b'), daysOfCover: Math.round(((stockOf('b') * 7) / soldB) * 10) / 10 },
    ]);
    expect(d.lowStock[1]?.daysOfCover).toBe(10.5);
    // Placed: c3. Accepted: o0 (due 24 February, late) and c5 (due today, not late yet).
    expect(d.queue).toEqual({ toAccept: 1, toShip: 2, late: 1 });
  });

  it('keeps an unlisted product among the best sellers, marked, and out of the restock list', async () => {
    const before = await dashboard('7d');
    expect(before.lowStock.map((p) => p.productId)).toContain(product.b.id);
    await env().db().update(products).set({ unlistedAt: new Date() }).where(eq(products.id, product.b.id));
    try {
      const d = await dashboard('7d');
      expect(d.topProducts.find((p) => p.productId === product.b.id)).toEqual({
        ...before.topProducts.find((p) => p.productId === product.b.id),
        unlisted: true,
      });
      expect(d.lowStock).toEqual(before.lowStock.filter((p) => p.productId !== product.b.id));
      expect(d.kpis).toEqual(before.kpis);
    } finally {
      const relisted = await env().request({ method: 'POST', url: `/api/my/products/${product.b.id}/relist`, headers: asUser(seller) });
      expect(relisted.statusCode).toBe(200);
    }
    expect(await dashboard('7d')).toEqual(before);
  });

  it('shows another seller only their own orders, and a newcomer zeros with every bucket', async () => {
    const other = await dashboard('7d', otherSeller);
    expect(other.kpis).toEqual({ netSales: 21, orders: 1, units: 7, averageOrderValue: 21, buyers: 1, repeatBuyers: 0 });
    expect(other.queue).toEqual({ toAccept: 0, toShip: 1, late: 1 }); // due 17 March
    expect(other.topProducts.map((p) => p.productId)).toEqual([product.x.id]);
    const empty = await dashboard('7d', stranger);
    expect(empty.kpis).toEqual({ netSales: 0, orders: 0, units: 0, averageOrderValue: 0, buyers: 0, repeatBuyers: 0 });
    expect(empty.series).toHaveLength(7);
    expect(empty.series.every((p) => p.netSales === 0 && p.orders === 0)).toBe(true);
    expect(empty).toMatchObject({ topProducts: [], lowStock: [], queue: { toAccept: 0, toShip: 0, late: 0 } });
    expect(empty.fulfilment).toEqual({ medianHoursToAccept: null, medianHoursToShip: null, shipped: 0, shippedLate: 0, lateShare: null, expiredUnaccepted: 0 });
  });

  it('refuses the signed-out and an unknown period; tells /api/me who sells', async () => {
    expect((await call('/api/seller/dashboard', {})).statusCode).toBe(401);
    expect((await call('/api/seller/orders.csv?from=2026-03-01&to=2026-03-18', {})).statusCode).toBe(401);
    const bad = await call('/api/seller/dashboard?period=1y', asUser(seller));
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION', message: 'Period must be 7d, 30d, 90d or 12m' } });
    const me = async (who: TestUser) => ((await call('/api/me', asUser(who))).json() as MeResponse).seller;
    expect(await me(seller)).toBe(true);
    expect(await me(buyers[0]!)).toBe(false);
    expect(await me(stranger)).toBe(false);
  });

  it('exports the orders of chosen days as CSV, one row a line, money to the cent, formulas defused', async () => {
    const response = await call('/api/seller/orders.csv?from=2026-03-12&to=2026-03-18', asUser(seller));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="orders-2026-03-12-to-2026-03-18.csv"');
    const rows = parse(response.body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0] ?? {})).toEqual([...ORDERS_EXPORT_COLUMNS]);
    const expected = mine()
      .filter((o) => inRange(o, '2026-03-12', '2026-03-18'))
      .sort((a, b) => a.placedAt.getTime() - b.placedAt.getTime());
    expect(rows.map((r) => r['Order number'])).toHaveLength(expected.length);
    const numbers = await Promise.all(expected.map(async (o) => ((await call(`/api/sales/${o.id}`, asUser(seller))).json() as Order).number));
    expect(rows.map((r) => r['Order number'])).toEqual(numbers);
    expect(rows.map((r) => r.Status)).toEqual(expected.map((o) => o.status));
    expect(rows.map((r) => r['Line total'])).toEqual(expected.map((o) => (o.cents / 100).toFixed(2)));
    const hinges = rows.find((r) => r.Status === 'shipped' && r.Product?.includes('Brass'));
    expect(hinges).toMatchObject({
      'Placed (UTC)': '2026-03-14 08:00',
      'Ship by': '2026-03-16',
      'Shipped (UTC)': '2026-03-17 12:00',
      'Buyer business': TEST_SHIP_TO.company,
      'Ship to': 'Test Buyer Ltd, 1 Warehouse Road, Springfield, IL, 62701, US',
      Product: "'=Brass Hinges",
      Quantity: '3',
      'Unit price': '10.00',
      Carrier: 'UPS',
      Tracking: '1Z999',
    });
    // The first day's first instant is in, the day before's last is not; another seller's never.
    const edge = await call('/api/seller/orders.csv?from=2026-03-11&to=2026-03-11', asUser(seller));
    expect((parse(edge.body, { bom: true, columns: true }) as unknown[]).length).toBe(1);
    const theirs = await call('/api/seller/orders.csv?from=2026-03-12&to=2026-03-18', asUser(otherSeller));
    expect((parse(theirs.body, { bom: true, columns: true }) as Array<Record<string, string>>).map((r) => r.Product)).toEqual(['Other Seller Xylophone']);
    const backwards = await call('/api/seller/orders.csv?from=2026-03-18&to=2026-03-12', asUser(seller));
    expect(backwards.statusCode).toBe(422);
    const tooLong = await call('/api/seller/orders.csv?from=2025-01-01&to=2026-03-12', asUser(seller));
    expect(tooLong.statusCode).toBe(422);
  });

  it("downloads the chart's figures as CSV, the same as the series", async () => {
    const d = await dashboard('7d');
    const response = await call('/api/seller/dashboard.csv?period=7d', asUser(seller));
    expect(response.statusCode).toBe(200);
    const rows = parse(response.body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows).toEqual(d.series.map((p) => ({ Start: p.start, 'Net sales': p.netSales.toFixed(2), Orders: String(p.orders) })));
  });
});
