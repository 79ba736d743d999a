import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Order } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, bearer, insertBuyers, signUpUser, TEST_SHIP_TO, type TestUser } from '../../../test/helpers/accounts.ts';
import { products } from '../../db/schema/catalog.ts';
import { orders } from '../../db/schema/orders.ts';
import { queryRows } from '../../db/rows.ts';
import { seedProduct, readStock, OTHER_SELLER } from '../../../test/helpers/products.ts';

/** The fields an order's snapshot copies, spelled out so the expected snapshot can name them. */
const SNAPSHOT_FIELDS = { image: '/images/products/test.webp', brandname: 'TestBrand', category: 'Office Supplies & Stationery' } as const;

function buy(env: TestEnv, who: { cookie: string } | { authorization: string } | Record<string, never>, body: unknown, key?: string) {
  return env.request({
    method: 'POST',
    url: '/api/order',
    headers: { ...who, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body as Record<string, unknown>,
  });
}

function listOrders(env: TestEnv, who: TestUser, query = '') {
  return env.request({ method: 'GET', url: `/api/orders/${encodeURIComponent(who.email)}${query}`, headers: asUser(who) });
}

function cancel(env: TestEnv, who: { cookie: string } | { authorization: string }, id: string) {
  return env.request({ method: 'DELETE', url: `/api/order/${id}`, headers: who });
}

async function countOrders(env: TestEnv, productId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(env.db(), sql`SELECT count(*)::int AS n FROM orders WHERE product_id = ${productId}`);
  return row?.n ?? 0;
}

describeEachDatabase('purchase: POST /api/order', (env) => {
  let buyer: TestUser;
  beforeAll(async () => {
    buyer = await signUpUser(env(), { name: 'Purchase Buyer' });
  });

  it('answers 401 to a signed-out buyer and changes nothing', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const response = await buy(env(), {}, { productId, quantity: 10 });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect(await readStock(env(), productId)).toBe(100);
    expect(await countOrders(env(), productId)).toBe(0);
  });

  it('creates the order, reduces the stock and answers 201 with the order and its snapshot', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, {
      ...SNAPSHOT_FIELDS,
      name: 'Gel Pens 12-Pack',
      mainquantity: 500,
      minquantity: 20,
      priceCents: 1900,
      discount: 0,
    });
    const response = await buy(env(), asUser(buyer), { productId, quantity: 25 });
    expect(response.statusCode).toBe(201);
    const order = response.json() as Order;
    // The original fields exactly as before; the order workflow's fields are checked in order-workflow.test.ts.
    expect(order).toMatchObject({
      number: expect.stringMatching(/^BC-\d+$/),
      status: 'placed',
      lines: [expect.objectContaining({ productId, quantity: 25, lineTotal: 475 })],
    });
    expect(order).toEqual({
      ...order,
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      productId,
      quantity: 25,
      data: new Date(order.createdAt).toLocaleDateString('en-US', { timeZone: 'UTC' }),
      createdAt: expect.any(String),
      unitPrice: 19,
      total: 475,
      listUnitPrice: 19,
      tierMinquantity: null,
      product: {
        name: 'Gel Pens 12-Pack',
        image: '/images/products/test.webp',
        brandname: 'TestBrand',
        category: 'Office Supplies & Stationery',
        minquantity: 20,
        sku: null,
      },
    });
    expect(Math.abs(Date.now() - Date.parse(order.createdAt))).toBeLessThan(60_000);
    expect(await readStock(env(), productId)).toBe(475);
  });

  it('records the discounted unit price in integer cents and keeps it when the product changes', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { name: 'Vitamin C Serum', priceCents: 1900, discount: 15, minquantity: 1 });
    const response = await buy(env(), asUser(buyer), { productId, quantity: 3 });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ unitPrice: 16.15 });
    const [row] = await env()
      .db()
      .select({ cents: orders.unitPriceCents })
      .from(orders)
      .where(eq(orders.id, (response.json() as Order)._id));
    expect(row?.cents).toBe(1615);

    await env().db().update(products).set({ priceCents: 9900, discount: 0, name: 'Renamed' }).where(eq(products.id, productId));
    const listed = (await listOrders(env(), buyer)).json() as Order[];
    expect(listed.find((o) => o.productId === productId)).toMatchObject({ unitPrice: 16.15, product: { name: 'Vitamin C Serum' } });
  });

  it('refuses a quantity below the minimum with the spec texts (422) and changes nothing', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 400, minquantity: 50 });
    const response = await buy(env(), asUser(buyer), { productId, quantity: 49 });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: { code: 'BELOW_MOQ', title: 'Minimum quantity not met', message: 'You must buy at least 50 units.' },
    });
    expect(await readStock(env(), productId)).toBe(400);
    expect(await countOrders(env(), productId)).toBe(0);
  });

  it('refuses more than the stock with the spec texts (409) and changes nothing', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 30, minquantity: 5 });
    const response = await buy(env(), asUser(buyer), { productId, quantity: 31 });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'OUT_OF_STOCK', title: 'sorry supply is short', message: 'we have only 30 units.' },
    });
    expect(await readStock(env(), productId)).toBe(30);
    expect(await countOrders(env(), productId)).toBe(0);
  });

  it('sells the last unit, then answers 409 with the stock at 0', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 12, minquantity: 12 });
    expect((await buy(env(), asUser(buyer), { productId, quantity: 12 })).statusCode).toBe(201);
    expect(await readStock(env(), productId)).toBe(0);
    const again = await buy(env(), asUser(buyer), { productId, quantity: 12 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { title: 'sorry supply is short', message: 'we have only 0 units.' } });
    expect(await readStock(env(), productId)).toBe(0);
  });

  it('answers 404 for an unknown product', async () => {
    const response = await buy(env(), asUser(buyer), { productId: randomUUID(), quantity: 10 });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Product not found' } });
  });

  it('refuses a product without a price with a clear 409', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { priceCents: null, mainquantity: 100, minquantity: 1 });
    const response = await buy(env(), asUser(buyer), { productId, quantity: 5 });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: { code: 'CONFLICT', title: 'Error', message: 'This product has no price yet, so it cannot be bought.' } });
    expect(await readStock(env(), productId)).toBe(100);
  });

  it.each([
    [{ quantity: 10 }, 'productId'],
    [{ productId: 'not-a-uuid', quantity: 10 }, 'productId'],
    [{ productId: randomUUID(), quantity: 0 }, 'quantity'],
    [{ productId: randomUUID(), quantity: 2.5 }, 'quantity'],
    [{ productId: randomUUID(), quantity: '10' }, 'quantity'],
  ])('answers 422 with a field error for bad input %j', async (body, field) => {
    const response = await buy(env(), asUser(buyer), body);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.fieldErrors).toHaveProperty(field);
  });

  it('takes the buyer and the date from the session and the clock, not from the body', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { minquantity: 1 });
    const response = await buy(env(), asUser(buyer), {
      productId,
      quantity: 2,
      buyerName: 'Mallory',
      buyerEmail: 'mallory@example.com',
      data: '1/1/1999',
    });
    expect(response.statusCode).toBe(201);
    const order = response.json() as Order;
    expect(order.data).not.toBe('1/1/1999');
    const [row] = await env().db().select().from(orders).where(eq(orders.id, order._id));
    expect(row).toMatchObject({ buyerId: buyer.id, buyerEmail: buyer.email, buyerName: 'Purchase Buyer' });
  });

  it("accepts the spec's bearer token instead of the cookie", async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { minquantity: 1, mainquantity: 10 });
    const response = await buy(env(), { authorization: `Bearer ${buyer.token}` }, { productId, quantity: 4 });
    expect(response.statusCode).toBe(201);
    expect(await readStock(env(), productId)).toBe(6);
  });

  it('stores each of simultaneous purchases with its own address as sent, quotes, backslashes, braces and NULL included', async () => {
    // The purchases of one product that arrive together are written by one statement, their values as
    // one array per column (array-insert.ts arrayInsert): an element's quoting must never leak into another's.
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { minquantity: 1, mainquantity: 100 });
    const buyers = await insertBuyers(env().db(), 6);
    const hostile = ['"}, {"x": 1', 'C:\\new\\table\\', 'NULL', '{a,b}', 'Ünïcødé 倉庫 📦', 'O\'Brien \\" , ;'];
    const sent = buyers.map((b, i) => ({ ...TEST_SHIP_TO, company: hostile[i]!, line1: `${hostile[(i + 1) % hostile.length]!} Road`, line2: hostile[i]! }));
    const answers = await Promise.all(buyers.map((b, i) => buy(env(), bearer(b), { productId, quantity: 1 + i, shipTo: sent[i] })));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
    for (const [i, answer] of answers.entries()) {
      const order = answer.json() as Order;
      const [row] = await env()
        .db()
        .select({ shipTo: orders.shipTo, quantity: orders.quantity, buyerId: orders.buyerId })
        .from(orders)
        .where(eq(orders.id, order._id));
      expect(row).toEqual({ shipTo: sent[i], quantity: 1 + i, buyerId: buyers[i]!.id });
      const [written] = await queryRows<{ lines: number; events: number }>(
        env().db(),
        sql`SELECT (SELECT count(*)::int FROM order_lines WHERE order_id = ${order._id}) AS lines,
                   (SELECT count(*)::int FROM order_events WHERE order_id = ${order._id}) AS events`,
      );
      expect(written).toEqual({ lines: 1, events: 1 });
    }
    expect(await readStock(env(), productId)).toBe(100 - 21);
  });

  it('refuses an account without a name (403)', async () => {
    const [nameless] = await insertBuyers(env().db(), 1, '  ');
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { minquantity: 1, mainquantity: 10 });
    const response = await buy(env(), bearer(nameless!), { productId, quantity: 1 });
    expect(response.statusCode).toBe(403);
    expect(await readStock(env(), productId)).toBe(10);
  });
});

describeEachDatabase('purchase idempotency', (env) => {
  let buyer: TestUser;
  beforeAll(async () => {
    buyer = await signUpUser(env());
  });

  it('answers a repeat with the same key with the first order, without a second order or decrement', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const key = randomUUID();
    const first = await buy(env(), asUser(buyer), { productId, quantity: 10 }, key);
    const second = await buy(env(), asUser(buyer), { productId, quantity: 10 }, key);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await readStock(env(), productId)).toBe(90);
    expect(await countOrders(env(), productId)).toBe(1);
  });

  it('replays the first order even when the stock could no longer cover a second one', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 10, minquantity: 10 });
    const key = randomUUID();
    const first = await buy(env(), asUser(buyer), { productId, quantity: 10 }, key);
    const second = await buy(env(), asUser(buyer), { productId, quantity: 10 }, key);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect((second.json() as Order)._id).toBe((first.json() as Order)._id);
    expect(await readStock(env(), productId)).toBe(0);
  });

  const reusedKeyBodies: Array<[string, (ids: { productId: string; otherProductId: string }) => { productId: string; quantity: number }]> = [
    ['a different quantity', ({ productId }) => ({ productId, quantity: 11 })],
    ['a different product', ({ otherProductId }) => ({ productId: otherProductId, quantity: 10 })],
  ];

  it.each(reusedKeyBodies)('refuses the key reused with %s (422) and changes nothing', async (_label, reusedBody) => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const { id: otherProductId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const key = randomUUID();
    const first = await buy(env(), asUser(buyer), { productId, quantity: 10 }, key);
    expect(first.statusCode).toBe(201);
    const second = await buy(env(), asUser(buyer), reusedBody({ productId, otherProductId }), key);
    expect(second.statusCode).toBe(422);
    expect(second.json()).toEqual({
      error: { code: 'VALIDATION', title: 'Idempotency-Key already used', message: 'This Idempotency-Key was already used for a different order.' },
    });
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await readStock(env(), productId)).toBe(90);
    expect(await readStock(env(), otherProductId)).toBe(100);
    expect(await countOrders(env(), productId)).toBe(1);
    expect(await countOrders(env(), otherProductId)).toBe(0);
    // The same purchase under the key still replays the first order.
    const third = await buy(env(), asUser(buyer), { productId: productId.toUpperCase(), quantity: 10 }, key);
    expect(third.statusCode).toBe(200);
    expect(third.json()).toEqual(first.json());
  });

  it('refuses a reused key whose new purchase would itself be refused with the key answer, not a second order', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 15, minquantity: 10 });
    const key = randomUUID();
    expect((await buy(env(), asUser(buyer), { productId, quantity: 10 }, key)).statusCode).toBe(201);
    // 20 is more than the 5 left: still the key's answer, since the key already names another order.
    const response = await buy(env(), asUser(buyer), { productId, quantity: 20 }, key);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { message: 'This Idempotency-Key was already used for a different order.' } });
    expect(await readStock(env(), productId)).toBe(5);
  });

  it('still replays the first order after its product was deleted', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const key = randomUUID();
    const first = await buy(env(), asUser(buyer), { productId, quantity: 10 }, key);
    await env().db().delete(products).where(eq(products.id, productId));
    const repeat = await buy(env(), asUser(buyer), { productId, quantity: 10 }, key);
    expect(repeat.statusCode).toBe(200);
    expect((repeat.json() as Order)._id).toBe((first.json() as Order)._id);
  });

  it('keeps keys per buyer: another buyer with the same key gets an order of their own', async () => {
    const other = await signUpUser(env());
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const key = randomUUID();
    const mine = await buy(env(), asUser(buyer), { productId, quantity: 10 }, key);
    const theirs = await buy(env(), asUser(other), { productId, quantity: 10 }, key);
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect((theirs.json() as Order)._id).not.toBe((mine.json() as Order)._id);
    expect(await readStock(env(), productId)).toBe(80);
  });

  it('makes a new order for a new key', async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    expect((await buy(env(), asUser(buyer), { productId, quantity: 10 }, randomUUID())).statusCode).toBe(201);
    expect((await buy(env(), asUser(buyer), { productId, quantity: 10 }, randomUUID())).statusCode).toBe(201);
    expect(await readStock(env(), productId)).toBe(80);
  });

  it.each(['short', 'has spaces in it', 'x'.repeat(129), 'semi;colon!'])('answers 400 to the malformed key %j and changes nothing', async (key) => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const response = await buy(env(), asUser(buyer), { productId, quantity: 10 }, key);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'BAD_REQUEST' } });
    expect(await readStock(env(), productId)).toBe(100);
  });
});

describeEachDatabase('orders list: GET /api/orders/{email}', (env) => {
  it("answers 401 signed out and 403 for another buyer's email", async () => {
    const buyer = await signUpUser(env());
    const other = await signUpUser(env());
    const signedOut = await env().request({ method: 'GET', url: `/api/orders/${encodeURIComponent(buyer.email)}` });
    expect(signedOut.statusCode).toBe(401);
    const foreign = await env().request({ method: 'GET', url: `/api/orders/${encodeURIComponent(other.email)}`, headers: asUser(buyer) });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it("lists only the buyer's own live orders, newest first", async () => {
    const buyer = await signUpUser(env());
    const other = await signUpUser(env());
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { minquantity: 1, mainquantity: 1000 });
    const ids: string[] = [];
    for (const quantity of [1, 2, 3]) ids.push(((await buy(env(), asUser(buyer), { productId, quantity })).json() as Order)._id);
    await buy(env(), asUser(other), { productId, quantity: 9 });
    expect((await cancel(env(), asUser(buyer), ids[1]!)).statusCode).toBe(200);

    const response = await listOrders(env(), buyer);
    expect(response.statusCode).toBe(200);
    const listed = response.json() as Order[];
    expect(listed.map((o) => o._id)).toEqual([ids[2], ids[0]]);
    expect(listed.map((o) => o.quantity)).toEqual([3, 1]);
    expect(response.headers.link).toBeUndefined();
    // The email in the path is matched without regard to case, as email addresses are.
    const upper = await env().request({ method: 'GET', url: `/api/orders/${encodeURIComponent(buyer.email.toUpperCase())}`, headers: asUser(buyer) });
    expect((upper.json() as Order[]).map((o) => o._id)).toEqual([ids[2], ids[0]]);
  });

  it('pages with limit and the Link header, never repeating or dropping an order', async () => {
    const buyer = await signUpUser(env());
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { minquantity: 1, mainquantity: 1000 });
    for (let q = 1; q <= 5; q++) await buy(env(), asUser(buyer), { productId, quantity: q });

    const seen: number[] = [];
    let url: string | null = `/api/orders/${encodeURIComponent(buyer.email)}?limit=2`;
    let pages = 0;
    while (url) {
      const response = await env().request({ method: 'GET', url, headers: asUser(buyer) });
      expect(response.statusCode).toBe(200);
      seen.push(...(response.json() as Order[]).map((o) => o.quantity));
      const link = response.headers.link as string | undefined;
      url = link ? (/<([^>]+)>; rel="next"/.exec(link)?.[1] ?? null) : null;
      pages++;
    }
    expect(seen).toEqual([5, 4, 3, 2, 1]);
    expect(pages).toBe(3);
  });

  it("lists the cancelled orders under ?status=cancelled (the cart's filter), paged with the status kept in Link", async () => {
    const buyer = await signUpUser(env());
    const other = await signUpUser(env());
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { minquantity: 1, mainquantity: 1000 });
    const ids: string[] = [];
    for (const quantity of [1, 2, 3, 4]) ids.push(((await buy(env(), asUser(buyer), { productId, quantity })).json() as Order)._id);
    const othersOrder = (await buy(env(), asUser(other), { productId, quantity: 9 })).json() as Order;
    for (const id of [ids[0]!, ids[2]!, ids[3]!]) expect((await cancel(env(), asUser(buyer), id)).statusCode).toBe(200);
    expect((await cancel(env(), asUser(other), othersOrder._id)).statusCode).toBe(200);

    const first = await listOrders(env(), buyer, '?status=cancelled&limit=2');
    expect(first.statusCode).toBe(200);
    expect((first.json() as Order[]).map((o) => [o._id, o.status])).toEqual([
      [ids[3], 'cancelled'],
      [ids[2], 'cancelled'],
    ]);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1];
    expect(next).toContain('status=cancelled');
    const second = await env().request({ method: 'GET', url: next!, headers: asUser(buyer) });
    expect((second.json() as Order[]).map((o) => o._id)).toEqual([ids[0]]);
    expect(second.headers.link).toBeUndefined();
    // Another status on its own; and the list without one still leaves the cancelled out.
    expect(((await listOrders(env(), buyer, '?status=placed')).json() as Order[]).map((o) => o._id)).toEqual([ids[1]]);
    expect(((await listOrders(env(), buyer)).json() as Order[]).map((o) => o._id)).toEqual([ids[1]]);
  });

  it.each(['?limit=0', '?limit=201', '?limit=abc', '?cursor=not*a*cursor', '?cursor=MA', '?status=gone', '?status='])(
    'answers 422 to the bad query %s',
    async (query) => {
      const buyer = await signUpUser(env());
      const response = await listOrders(env(), buyer, query);
      expect(response.statusCode).toBe(422);
    },
  );

  it('still lists an order whose product was deleted, from its snapshot', async () => {
    const buyer = await signUpUser(env());
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, {
      ...SNAPSHOT_FIELDS,
      name: 'Soon Gone Stapler',
      minquantity: 2,
      mainquantity: 50,
      priceCents: 450,
      discount: 10,
    });
    const order = (await buy(env(), asUser(buyer), { productId, quantity: 4 })).json() as Order;
    await env().db().delete(products).where(eq(products.id, productId));

    const listed = (await listOrders(env(), buyer)).json() as Order[];
    expect(listed).toEqual([
      {
        ...order,
        productId: null,
        lines: [{ ...order.lines[0], productId: null }],
        product: {
          name: 'Soon Gone Stapler',
          image: '/images/products/test.webp',
          brandname: 'TestBrand',
          category: 'Office Supplies & Stationery',
          minquantity: 2,
          sku: null,
        },
        unitPrice: 4.05,
      },
    ]);
    // Cancelling it still works; there is simply no product left to restore.
    expect((await cancel(env(), asUser(buyer), order._id)).statusCode).toBe(200);
    expect((await listOrders(env(), buyer)).json()).toEqual([]);
  });
});

describeEachDatabase('cancel: DELETE /api/order/{id}', (env) => {
  it("cancels the buyer's own order and restores its quantity exactly once", async () => {
    const buyer = await signUpUser(env());
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const order = (await buy(env(), asUser(buyer), { productId, quantity: 30 })).json() as Order;
    expect(await readStock(env(), productId)).toBe(70);

    const first = await cancel(env(), asUser(buyer), order._id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ _id: order._id, cancelled: true });
    expect(await readStock(env(), productId)).toBe(100);
    expect((await listOrders(env(), buyer)).json()).toEqual([]);

    const second = await cancel(env(), asUser(buyer), order._id);
    expect(second.statusCode).toBe(404);
    expect(await readStock(env(), productId)).toBe(100);
  });

  it("answers 404 for another buyer's order and changes nothing", async () => {
    const owner = await signUpUser(env());
    const intruder = await signUpUser(env());
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const order = (await buy(env(), asUser(owner), { productId, quantity: 10 })).json() as Order;

    const response = await cancel(env(), asUser(intruder), order._id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Order not found' } });
    expect(await readStock(env(), productId)).toBe(90);
    expect(((await listOrders(env(), owner)).json() as Order[]).map((o) => o._id)).toEqual([order._id]);
    const [row] = await env().db().select({ cancelledAt: orders.cancelledAt }).from(orders).where(eq(orders.id, order._id));
    expect(row?.cancelledAt).toBeNull();
  });

  it.each(['not-a-uuid', randomUUID(), '1 OR 1=1'])('answers 404 for the unknown or malformed id %s', async (id) => {
    const buyer = await signUpUser(env());
    const response = await cancel(env(), asUser(buyer), encodeURIComponent(id));
    expect(response.statusCode).toBe(404);
  });

  it('answers 401 signed out', async () => {
    const response = await env().request({ method: 'DELETE', url: `/api/order/${randomUUID()}` });
    expect(response.statusCode).toBe(401);
  });
});
