import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { ORDER_MESSAGES, shipByWindow, type Notification, type Order, type SalesCounts } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, TEST_SHIP_TO, type TestUser } from '../../../test/helpers/accounts.ts';
import { readStock, seedProduct } from '../../../test/helpers/products.ts';
import { runOrderSweep } from './sales.service.ts';

type Who = { cookie: string } | Record<string, never>;
const DAY = 86_400_000;

function call(env: TestEnv, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: Who, payload?: unknown) {
  return env.request({ method, url, headers: who, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });
}

describeEachDatabase('order workflow', (env) => {
  let seller: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;
  let productId: string;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Desk Seller Co' });
    buyer = await signUpUser(env(), { name: 'Desk Buyer Co' });
    stranger = await signUpUser(env(), { name: 'Stranger Co' });
  });

  beforeEach(async () => {
    env().ctx.clock = () => new Date();
    productId = (await seedProduct(env(), seller, { name: 'Desk Lamp', mainquantity: 100, minquantity: 10, priceCents: 250, discount: 0 })).id;
  });

  async function place(quantity = 10, who: TestUser = buyer): Promise<Order> {
    const response = await call(env(), 'POST', '/api/order', asUser(who), { productId, quantity });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Order;
  }

  const sale = (id: string, action: string, who: Who, body: unknown = {}) => call(env(), 'POST', `/api/sales/${id}/${action}`, who, body);

  async function notificationsOf(who: TestUser): Promise<Notification[]> {
    return (await call(env(), 'GET', '/api/notifications?limit=200', asUser(who))).json() as Notification[];
  }

  it('places an order with a number, total, ship-to, one line and a timeline, and tells the seller', async () => {
    const order = await place(20);
    expect(order).toMatchObject({
      number: expect.stringMatching(/^BC-\d{5,}$/),
      status: 'placed',
      total: 50,
      shipTo: TEST_SHIP_TO,
      shipBy: null,
      late: false,
      sellerName: 'Desk Seller Co',
      buyerName: 'Desk Buyer Co',
      lines: [{ productId, quantity: 20, unitPrice: 2.5, lineTotal: 50, product: { name: 'Desk Lamp' } }],
      timeline: [{ actor: 'buyer', actorName: 'Desk Buyer Co', from: null, to: 'placed' }],
    });
    expect((await call(env(), 'GET', `/api/order/${order._id}`, asUser(buyer))).json()).toEqual(order);
    const told = (await notificationsOf(seller)).find((n) => n.orderId === order._id);
    expect(told).toMatchObject({ kind: 'placed', orderNumber: order.number, read: false });
    expect(told?.message).toContain(order.number);
  });

  it('gives every order its own number', async () => {
    const numbers = new Set([(await place()).number, (await place()).number, (await place()).number]);
    expect(numbers.size).toBe(3);
  });

  it('walks placed → accepted → shipped → delivered, with a timeline entry and a notice for each step', async () => {
    const order = await place();
    const window = shipByWindow(new Date());
    const accepted = await sale(order._id, 'accept', asUser(seller));
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'accepted', shipBy: window.default, late: false });

    const shipped = await sale(order._id, 'ship', asUser(seller), { carrier: 'UPS', tracking: '1Z999' });
    expect(shipped.json()).toMatchObject({ status: 'shipped', carrier: 'UPS', tracking: '1Z999' });

    const delivered = await sale(order._id, 'deliver', asUser(seller));
    const done = delivered.json() as Order;
    expect(done.status).toBe('delivered');
    expect(done.timeline.map((t) => [t.actor, t.from, t.to])).toEqual([
      ['buyer', null, 'placed'],
      ['seller', 'placed', 'accepted'],
      ['seller', 'accepted', 'shipped'],
      ['seller', 'shipped', 'delivered'],
    ]);
    const kinds = (await notificationsOf(buyer)).filter((n) => n.orderId === order._id).map((n) => n.kind);
    expect(kinds).toEqual(['delivered', 'shipped', 'accepted']);
    expect(await readStock(env(), productId)).toBe(90);
  });

  it('lets the buyer confirm a shipped order received, and tells the seller', async () => {
    const order = await place();
    await sale(order._id, 'accept', asUser(seller));
    expect((await call(env(), 'POST', `/api/order/${order._id}/received`, asUser(buyer))).statusCode).toBe(409);
    await sale(order._id, 'ship', asUser(seller), {});
    const received = await call(env(), 'POST', `/api/order/${order._id}/received`, asUser(buyer));
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json()).toMatchObject({ status: 'delivered', carrier: null, tracking: null });
    expect((await notificationsOf(seller)).find((n) => n.orderId === order._id && n.kind === 'delivered')).toBeDefined();
    expect((await call(env(), 'POST', `/api/order/${order._id}/received`, asUser(stranger))).statusCode).toBe(404);
  });

  it('declines with a reason and returns the stock exactly once', async () => {
    const order = await place(30);
    expect(await readStock(env(), productId)).toBe(70);
    const declined = await sale(order._id, 'decline', asUser(seller), { reason: 'Out of season' });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({ status: 'declined', reason: 'Out of season' });
    expect(await readStock(env(), productId)).toBe(100);
    const again = await sale(order._id, 'decline', asUser(seller), { reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(await readStock(env(), productId)).toBe(100);
    // The buyer still sees it, declined, in the cart list; cancelling it is a 409, not a second restock.
    const listed = (await call(env(), 'GET', `/api/orders/${encodeURIComponent(buyer.email)}`, asUser(buyer))).json() as Order[];
    expect(listed.find((o) => o._id === order._id)?.status).toBe('declined');
    expect((await call(env(), 'DELETE', `/api/order/${order._id}`, asUser(buyer))).statusCode).toBe(409);
    expect(await readStock(env(), productId)).toBe(100);
    const told = (await notificationsOf(buyer)).find((n) => n.orderId === order._id && n.kind === 'declined');
    expect(told?.message).toContain('Out of season');
  });

  it('refuses the buyer a cancel once the seller accepted (409 with the fixed text), stock kept', async () => {
    const order = await place();
    await sale(order._id, 'accept', asUser(seller));
    const response = await call(env(), 'DELETE', `/api/order/${order._id}`, asUser(buyer));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: { code: 'CONFLICT', message: ORDER_MESSAGES.alreadyAccepted } });
    expect(await readStock(env(), productId)).toBe(90);
  });

  it('tells the seller when the buyer cancels a placed order, and gives the stock back', async () => {
    const order = await place();
    expect((await call(env(), 'DELETE', `/api/order/${order._id}`, asUser(buyer))).statusCode).toBe(200);
    expect(await readStock(env(), productId)).toBe(100);
    expect((await notificationsOf(seller)).find((n) => n.orderId === order._id && n.kind === 'cancelled')).toBeDefined();
    const view = (await call(env(), 'GET', `/api/sales/${order._id}`, asUser(seller))).json() as Order;
    expect(view.status).toBe('cancelled');
    expect((await sale(order._id, 'accept', asUser(seller))).statusCode).toBe(409);
  });

  it.each([
    ['ship', 'placed', {}],
    ['deliver', 'placed', {}],
  ])('answers 409 to %s from %s, changing nothing', async (action, _from, body) => {
    const order = await place();
    const response = await sale(order._id, action, asUser(seller), body);
    expect(response.statusCode).toBe(409);
    expect(((await call(env(), 'GET', `/api/sales/${order._id}`, asUser(seller))).json() as Order).status).toBe('placed');
  });

  it('answers 409 to accepting twice and to delivering an accepted order', async () => {
    const order = await place();
    await sale(order._id, 'accept', asUser(seller));
    expect((await sale(order._id, 'accept', asUser(seller))).statusCode).toBe(409);
    expect((await sale(order._id, 'deliver', asUser(seller))).statusCode).toBe(409);
  });

  it("shows an order of someone else's product as unknown (404) and changes nothing", async () => {
    const order = await place();
    for (const action of ['accept', 'decline', 'ship', 'deliver']) {
      const response = await sale(order._id, action, asUser(stranger), { reason: 'x' });
      expect(response.statusCode, action).toBe(404);
    }
    // The buyer is not the seller either, and the seller does not see the buyer's route.
    expect((await sale(order._id, 'accept', asUser(buyer))).statusCode).toBe(404);
    expect((await call(env(), 'GET', `/api/sales/${order._id}`, asUser(stranger))).statusCode).toBe(404);
    expect((await call(env(), 'GET', `/api/order/${order._id}`, asUser(seller))).statusCode).toBe(404);
    expect((await call(env(), 'GET', `/api/order/${order._id}`, asUser(stranger))).statusCode).toBe(404);
    expect((await call(env(), 'DELETE', `/api/order/${order._id}`, asUser(stranger))).statusCode).toBe(404);
    expect((await call(env(), 'GET', `/api/sales/not-a-uuid`, asUser(seller))).statusCode).toBe(404);
    expect((await call(env(), 'GET', `/api/sales/${randomUUID()}`, asUser(seller))).statusCode).toBe(404);
    expect(((await call(env(), 'GET', `/api/order/${order._id}`, asUser(buyer))).json() as Order).status).toBe('placed');
  });

  it('answers 401 signed out on every order workflow route', async () => {
    const id = randomUUID();
    const routes: Array<[Parameters<typeof call>[1], string]> = [
      ['GET', `/api/order/${id}`],
      ['POST', `/api/order/${id}/received`],
      ['GET', '/api/sales'],
      ['GET', '/api/sales/counts'],
      ['GET', `/api/sales/${id}`],
      ['POST', `/api/sales/${id}/accept`],
      ['POST', `/api/sales/${id}/decline`],
      ['POST', `/api/sales/${id}/ship`],
      ['POST', `/api/sales/${id}/deliver`],
      ['GET', '/api/account/ship-to'],
      ['PUT', '/api/account/ship-to'],
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread-count'],
      ['POST', `/api/notifications/${id}/read`],
      ['POST', '/api/notifications/read-all'],
      ['GET', `/api/product/${id}/open-orders`],
    ];
    for (const [method, url] of routes) {
      const response = await call(env(), method, url, {}, method === 'GET' ? undefined : {});
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    const order = await place();
    const window = shipByWindow(new Date());
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const tooLate = new Date(Date.parse(`${window.max}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
    for (const shipBy of [yesterday, tooLate, '2026-02-30', 'next week', 20261201]) {
      const response = await sale(order._id, 'accept', asUser(seller), { shipBy });
      expect(response.statusCode, String(shipBy)).toBe(422);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { shipBy: [expect.any(String)] } } });
    }
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const response = await sale(order._id, 'decline', asUser(seller), body);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: { fieldErrors: { reason: [expect.any(String)] } } });
    }
    expect(((await call(env(), 'GET', `/api/sales/${order._id}`, asUser(seller))).json() as Order).status).toBe('placed');
    await sale(order._id, 'accept', asUser(seller), { shipBy: window.max });
    const shipped = await sale(order._id, 'ship', asUser(seller), { tracking: 'y'.repeat(81) });
    expect(shipped.statusCode).toBe(422);
    expect((await call(env(), 'GET', '/api/sales?status=lost', asUser(seller))).statusCode).toBe(422);
    expect((await call(env(), 'GET', '/api/sales?cursor=nonsense!', asUser(seller))).statusCode).toBe(422);
  });

  it('accepts the latest ship-by date allowed and today', async () => {
    const window = shipByWindow(new Date());
    const first = await place();
    expect((await sale(first._id, 'accept', asUser(seller), { shipBy: window.max })).json()).toMatchObject({ shipBy: window.max });
    const second = await place();
    expect((await sale(second._id, 'accept', asUser(seller), { shipBy: window.min })).json()).toMatchObject({ shipBy: window.min });
  });

  it('refuses a seller buying their own product (403 with the fixed text), stock unchanged', async () => {
    const response = await call(env(), 'POST', '/api/order', asUser(seller), { productId, quantity: 10 });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: 'You cannot buy your own product.' } });
    expect(await readStock(env(), productId)).toBe(100);
  });

  it('lists the desk newest first, by status, paged with Link, and counts per status', async () => {
    const desk = await signUpUser(env(), { name: 'Paged Seller' });
    const own = (await seedProduct(env(), desk, { mainquantity: 1000, minquantity: 1, priceCents: 100 })).id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push(((await call(env(), 'POST', '/api/order', asUser(buyer), { productId: own, quantity: 1 })).json() as Order)._id);
    }
    await sale(ids[0]!, 'accept', asUser(desk));
    await sale(ids[1]!, 'decline', asUser(desk), { reason: 'No' });
    const first = await call(env(), 'GET', '/api/sales?limit=2', asUser(desk));
    expect((first.json() as Order[]).map((o) => o._id)).toEqual([ids[4], ids[3]]);
    const link = String(first.headers.link);
    expect(link).toMatch(/^<\/api\/sales\?limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    const next = await call(env(), 'GET', link.slice(1, link.indexOf('>')), asUser(desk));
    expect((next.json() as Order[]).map((o) => o._id)).toEqual([ids[2], ids[1]]);
    const placed = await call(env(), 'GET', '/api/sales?status=placed&limit=2', asUser(desk));
    expect((placed.json() as Order[]).map((o) => o._id)).toEqual([ids[4], ids[3]]);
    expect(String(placed.headers.link)).toContain('status=placed');
    const counts = (await call(env(), 'GET', '/api/sales/counts', asUser(desk))).json() as SalesCounts;
    expect(counts).toEqual({ placed: 3, accepted: 1, shipped: 0, delivered: 0, declined: 1, cancelled: 0, late: 0 });
    expect((await call(env(), 'GET', '/api/sales', asUser(stranger))).json()).toEqual([]);
    expect((await call(env(), 'GET', '/api/sales/counts', asUser(stranger))).json()).toEqual({
      placed: 0,
      accepted: 0,
      shipped: 0,
      delivered: 0,
      declined: 0,
      cancelled: 0,
      late: 0,
    });
  });

  it('lists and counts the late orders: accepted and past their ship-by date, nothing else', async () => {
    const desk = await signUpUser(env(), { name: 'Late Desk Co' });
    const own = (await seedProduct(env(), desk, { mainquantity: 1000, minquantity: 1, priceCents: 100 })).id;
    const order = async () => ((await call(env(), 'POST', '/api/order', asUser(buyer), { productId: own, quantity: 1 })).json() as Order)._id;
    const [dueToday, dueLater, shippedToday, stillPlaced] = [await order(), await order(), await order(), await order()];
    const window = shipByWindow(new Date());
    await sale(dueToday, 'accept', asUser(desk), { shipBy: window.min });
    await sale(dueLater, 'accept', asUser(desk), { shipBy: window.max });
    await sale(shippedToday, 'accept', asUser(desk), { shipBy: window.min });
    await sale(shippedToday, 'ship', asUser(desk), {});
    const ids = async (url: string) => ((await call(env(), 'GET', url, asUser(desk))).json() as Order[]).map((o) => o._id);
    const lateCount = async () => ((await call(env(), 'GET', '/api/sales/counts', asUser(desk))).json() as SalesCounts).late;

    expect(await ids('/api/sales?late=true')).toEqual([]);
    expect(await lateCount()).toBe(0);
    // The day after the earliest ship-by date: only the accepted order promised for it is late.
    env().ctx.clock = () => new Date(Date.parse(`${window.min}T00:00:00Z`) + DAY + 1000);
    expect(await ids('/api/sales?late=true')).toEqual([dueToday]);
    expect(await lateCount()).toBe(1);
    expect(await ids('/api/sales?late=true&status=placed')).toEqual([]);
    expect(await ids('/api/sales?status=placed')).toEqual([stillPlaced]);
    expect(await ids('/api/sales?late=true')).not.toContain(dueLater);
    expect((await call(env(), 'GET', '/api/sales?late=yes', asUser(desk))).statusCode).toBe(422);
    expect(((await call(env(), 'GET', '/api/sales?late=true', asUser(stranger))).json() as Order[]).map((o) => o._id)).toEqual([]);
  });

  it('counts open orders of a product for its owner only', async () => {
    const a = await place();
    const b = await place();
    await place();
    await sale(a._id, 'decline', asUser(seller), { reason: 'No' });
    await sale(b._id, 'accept', asUser(seller));
    const response = await call(env(), 'GET', `/api/product/${productId}/open-orders`, asUser(seller));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 2 });
    expect((await call(env(), 'GET', `/api/product/${productId}/open-orders`, asUser(stranger))).statusCode).toBe(404);
    expect((await call(env(), 'GET', `/api/product/${randomUUID()}/open-orders`, asUser(seller))).statusCode).toBe(404);
    // Deleting the product keeps its orders complete and fulfillable from their snapshot.
    expect((await call(env(), 'DELETE', `/api/product/${productId}`, asUser(seller))).statusCode).toBe(200);
    const shipped = await sale(b._id, 'ship', asUser(seller), {});
    expect(shipped.json()).toMatchObject({ status: 'shipped', productId: null, lines: [{ product: { name: 'Desk Lamp' } }] });
  });

  it('marks notifications read one by one or all at once, and only the owner can', async () => {
    const reader = await signUpUser(env(), { name: 'Reader Seller' });
    const own = (await seedProduct(env(), reader, { mainquantity: 1000, minquantity: 1, priceCents: 100 })).id;
    for (let i = 0; i < 3; i += 1) await call(env(), 'POST', '/api/order', asUser(buyer), { productId: own, quantity: 1 });
    expect((await call(env(), 'GET', '/api/notifications/unread-count', asUser(reader))).json()).toEqual({ count: 3 });
    const page = await call(env(), 'GET', '/api/notifications?limit=2', asUser(reader));
    const [newest] = page.json() as Notification[];
    expect(page.headers.link).toBeDefined();
    expect((await call(env(), 'POST', `/api/notifications/${newest!._id}/read`, asUser(stranger))).statusCode).toBe(404);
    const read = await call(env(), 'POST', `/api/notifications/${newest!._id}/read`, asUser(reader));
    expect(read.json()).toMatchObject({ _id: newest!._id, read: true });
    expect((await call(env(), 'GET', '/api/notifications/unread-count', asUser(reader))).json()).toEqual({ count: 2 });
    expect((await call(env(), 'POST', '/api/notifications/read-all', asUser(reader))).json()).toEqual({ marked: 2 });
    expect((await call(env(), 'GET', '/api/notifications/unread-count', asUser(reader))).json()).toEqual({ count: 0 });
    expect((await call(env(), 'POST', '/api/notifications/not-a-uuid/read', asUser(reader))).statusCode).toBe(404);
  });

  it('cancels orders not accepted within 3 business days ("Not accepted in time"), restocks once, tells both', async () => {
    const order = await place(40);
    const placedAt = new Date(order.createdAt);
    // Two calendar days later nothing happens, whatever the weekday.
    expect((await runOrderSweep(env().db(), env().config, new Date(placedAt.getTime() + 2 * DAY))).cancelled).toBe(0);
    const later = new Date(placedAt.getTime() + 5 * DAY + 1000);
    const first = await runOrderSweep(env().db(), env().config, later);
    expect(first.cancelled).toBeGreaterThanOrEqual(1);
    expect(await readStock(env(), productId)).toBe(100);
    const view = (await call(env(), 'GET', `/api/sales/${order._id}`, asUser(seller))).json() as Order;
    expect(view).toMatchObject({ status: 'cancelled', reason: ORDER_MESSAGES.notAcceptedInTime });
    expect(view.timeline.at(-1)).toMatchObject({ actor: 'system', from: 'placed', to: 'cancelled', note: 'Not accepted in time' });
    await runOrderSweep(env().db(), env().config, later);
    expect(await readStock(env(), productId)).toBe(100);
    for (const who of [buyer, seller]) {
      const told = (await notificationsOf(who)).filter((n) => n.orderId === order._id && n.kind === 'cancelled');
      expect(told).toHaveLength(1);
      expect(told[0]?.message).toContain(order.number);
    }
    // The buyer can still open it (Buy again), though it left the cart list.
    expect(((await call(env(), 'GET', `/api/order/${order._id}`, asUser(buyer))).json() as Order).status).toBe('cancelled');
  });

  it('flags an accepted order late past its ship-by date, and tells both sides once', async () => {
    const order = await place();
    const accepted = (await sale(order._id, 'accept', asUser(seller))).json() as Order;
    const afterShipBy = new Date(Date.parse(`${accepted.shipBy}T00:00:00Z`) + DAY + 1000);
    env().ctx.clock = () => afterShipBy;
    expect(((await call(env(), 'GET', `/api/order/${order._id}`, asUser(buyer))).json() as Order).late).toBe(true);
    expect(((await call(env(), 'GET', `/api/sales/${order._id}`, asUser(seller))).json() as Order).late).toBe(true);
    await runOrderSweep(env().db(), env().config, afterShipBy);
    await runOrderSweep(env().db(), env().config, afterShipBy);
    for (const who of [buyer, seller]) {
      expect((await notificationsOf(who)).filter((n) => n.orderId === order._id && n.kind === 'late')).toHaveLength(1);
    }
    const shipped = (await sale(order._id, 'ship', asUser(seller), {})).json() as Order;
    expect(shipped.late).toBe(false);
  });
});

describeEachDatabase('ship-to', (env) => {
  it('saves the first ship-to sent with an order as the default, and uses it next time', async () => {
    const newcomer = await signUpUser(env(), { name: 'New Buyer', withShipTo: false });
    const productId = (await seedProduct(env(), { id: null, email: 'far@example.com' }, { mainquantity: 100, minquantity: 1, priceCents: 100 })).id;
    expect((await call(env(), 'GET', '/api/account/ship-to', asUser(newcomer))).json()).toEqual({ shipTo: null });

    const missing = await call(env(), 'POST', '/api/order', asUser(newcomer), { productId, quantity: 1 });
    expect(missing.statusCode).toBe(422);
    const fieldErrors = (missing.json() as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors;
    expect(Object.keys(fieldErrors).sort()).toEqual([
      'shipTo.city',
      'shipTo.company',
      'shipTo.country',
      'shipTo.line1',
      'shipTo.phone',
      'shipTo.postalCode',
      'shipTo.region',
    ]);
    expect(await readStock(env(), productId)).toBe(100);

    const bad = await call(env(), 'POST', '/api/order', asUser(newcomer), { productId, quantity: 1, shipTo: { ...TEST_SHIP_TO, country: 'XX' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: { fieldErrors: { 'shipTo.country': [expect.any(String)] } } });

    const address = { ...TEST_SHIP_TO, company: 'Newcomer Ltd', line2: 'Dock 4', country: 'gb' };
    const first = await call(env(), 'POST', '/api/order', asUser(newcomer), { productId, quantity: 1, shipTo: address });
    expect(first.statusCode, first.body).toBe(201);
    expect((first.json() as Order).shipTo).toEqual({ ...address, country: 'GB' });
    expect((await call(env(), 'GET', '/api/account/ship-to', asUser(newcomer))).json()).toEqual({ shipTo: { ...address, country: 'GB' } });

    // A different address for one order does not replace the saved default.
    const other = { ...TEST_SHIP_TO, company: 'Pop-up Store' };
    expect(((await call(env(), 'POST', '/api/order', asUser(newcomer), { productId, quantity: 1, shipTo: other })).json() as Order).shipTo).toEqual(other);
    const third = (await call(env(), 'POST', '/api/order', asUser(newcomer), { productId, quantity: 1 })).json() as Order;
    expect(third.shipTo?.company).toBe('Newcomer Ltd');
  });

  it('replaces the saved address with PUT, validating it with the shared schema', async () => {
    const who = await signUpUser(env(), { name: 'Mover Buyer', withShipTo: false });
    const put = await call(env(), 'PUT', '/api/account/ship-to', asUser(who), { ...TEST_SHIP_TO, city: 'Chicago' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ shipTo: { ...TEST_SHIP_TO, city: 'Chicago' } });
    const bad = await call(env(), 'PUT', '/api/account/ship-to', asUser(who), { ...TEST_SHIP_TO, phone: 'call me' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: { fieldErrors: { phone: [expect.any(String)] } } });
    expect((await call(env(), 'GET', '/api/account/ship-to', asUser(who))).json()).toEqual({ shipTo: { ...TEST_SHIP_TO, city: 'Chicago' } });
  });
});
