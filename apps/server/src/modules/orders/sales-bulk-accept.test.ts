import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { LIMITS, shipByWindow, type AcceptOrdersAnswer, type Notification, type Order } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { seedProduct } from '../../../test/helpers/products.ts';

/** POST /api/sales/accept: the desk's "accept the selected orders" with one ship-by date. */

type Who = { cookie: string } | Record<string, never>;

function call(env: TestEnv, method: 'GET' | 'POST' | 'DELETE', url: string, who: Who, payload?: unknown) {
  return env.request({ method, url, headers: who, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });
}

describeEachDatabase('bulk accept: POST /api/sales/accept', (env) => {
  let seller: TestUser;
  let buyer: TestUser;
  let otherSeller: TestUser;
  let productId: string;

  beforeAll(async () => {
    [seller, buyer, otherSeller] = await Promise.all([
      signUpUser(env(), { name: 'Bulk Seller Co' }),
      signUpUser(env(), { name: 'Bulk Buyer Co' }),
      signUpUser(env(), { name: 'Other Seller Co' }),
    ]);
  });

  beforeEach(async () => {
    productId = (await seedProduct(env(), seller, { name: 'Bulk Lamp', mainquantity: 1000, minquantity: 1, priceCents: 250, discount: 0 })).id;
  });

  async function place(quantity = 5, product = productId): Promise<Order> {
    const response = await call(env(), 'POST', '/api/order', asUser(buyer), { productId: product, quantity });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Order;
  }

  const statusOf = async (id: string) => ((await call(env(), 'GET', `/api/order/${id}`, asUser(buyer))).json() as Order).status;

  it('accepts every chosen placed order with the one ship-by date, a timeline entry each, and tells the buyer of each', async () => {
    const orders = [await place(), await place(), await place()];
    const window = shipByWindow(new Date());
    const response = await call(env(), 'POST', '/api/sales/accept', asUser(seller), { ids: [...orders.map((o) => o._id), orders[0]!._id], shipBy: window.max });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as AcceptOrdersAnswer;
    expect(answer.refused).toEqual([]);
    expect(answer.accepted.map((o) => o._id).sort()).toEqual(orders.map((o) => o._id).sort());
    for (const sale of answer.accepted) {
      expect(sale).toMatchObject({ status: 'accepted', shipBy: window.max, buyerVerified: false });
      expect(sale.timeline.at(-1)).toMatchObject({ actor: 'seller', from: 'placed', to: 'accepted', note: `Ship by ${window.max}` });
    }
    const told = (await call(env(), 'GET', '/api/notifications?limit=200', asUser(buyer))).json() as Notification[];
    for (const order of orders) expect(told.filter((n) => n.orderId === order._id && n.kind === 'accepted')).toHaveLength(1);
    // Without a date: two business days ahead, as for one order.
    const later = await place();
    const again = (await call(env(), 'POST', '/api/sales/accept', asUser(seller), { ids: [later._id] })).json() as AcceptOrdersAnswer;
    expect(again.accepted[0]?.shipBy).toBe(window.default);
  });

  it('refuses, with why, the orders it cannot accept, and accepts the rest', async () => {
    const [open, cancelled, taken] = [await place(), await place(), await place()];
    expect((await call(env(), 'DELETE', `/api/order/${cancelled._id}`, asUser(buyer))).statusCode).toBe(200);
    expect((await call(env(), 'POST', `/api/sales/${taken._id}/accept`, asUser(seller), {})).statusCode).toBe(200);
    const othersProduct = (await seedProduct(env(), otherSeller, { mainquantity: 100, minquantity: 1, priceCents: 100 })).id;
    const notMine = await place(5, othersProduct);
    const unknown = randomUUID();

    const response = await call(env(), 'POST', '/api/sales/accept', asUser(seller), { ids: [open._id, cancelled._id, taken._id, notMine._id, unknown] });
    expect(response.statusCode).toBe(200);
    const answer = response.json() as AcceptOrdersAnswer;
    expect(answer.accepted.map((o) => o._id)).toEqual([open._id]);
    const refused = new Map(answer.refused.map((r) => [r._id, r]));
    expect(refused.size).toBe(4);
    expect(refused.get(cancelled._id)).toEqual({
      _id: cancelled._id,
      number: cancelled.number,
      title: 'Order already changed',
      message: 'This order was cancelled.',
    });
    expect(refused.get(taken._id)).toMatchObject({
      number: taken.number,
      title: 'Order already changed',
      message: 'The seller has already accepted this order',
    });
    // Someone else's order looks exactly like an unknown one: no number, nothing about it.
    expect(refused.get(notMine._id)).toEqual({ _id: notMine._id, number: null, title: 'Not found', message: 'Order not found' });
    expect(refused.get(unknown)).toEqual({ _id: unknown, number: null, title: 'Not found', message: 'Order not found' });
    expect(await statusOf(notMine._id)).toBe('placed');
    expect(await statusOf(cancelled._id)).toBe('cancelled');
  });

  it.each([
    ['no orders', { ids: [] }, 'ids'],
    ['an id that is not one', { ids: ['BC-10001'] }, 'ids.0'],
    [`more than ${LIMITS.bulkAcceptMax}`, { ids: Array.from({ length: LIMITS.bulkAcceptMax + 1 }, () => randomUUID()) }, 'ids'],
    ['a past ship-by date', { ids: [] as string[], shipBy: '2001-01-02' }, 'shipBy'],
    ['a ship-by date past three business days', { ids: [] as string[], shipBy: '2999-01-01' }, 'shipBy'],
  ])('answers 422 to %s and accepts nothing', async (_what, body, field) => {
    const order = await place();
    const payload = body.ids.length === 0 && field === 'shipBy' ? { ...body, ids: [order._id] } : body;
    const response = await call(env(), 'POST', '/api/sales/accept', asUser(seller), payload);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { [field]: [expect.any(String)] } } });
    expect(await statusOf(order._id)).toBe('placed');
  });

  it('answers 401 signed out and changes nothing', async () => {
    const order = await place();
    const response = await call(env(), 'POST', '/api/sales/accept', {}, { ids: [order._id] });
    expect(response.statusCode).toBe(401);
    expect(await statusOf(order._id)).toBe('placed');
  });
});
