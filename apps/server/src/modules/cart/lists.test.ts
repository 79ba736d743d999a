import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CartAddAnswer, CheckoutAnswer, SavedList } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { seedProduct, UNKNOWN_ID } from '../../../test/helpers/products.ts';
import { checkout, getCart, setLine } from '../../../test/helpers/cart.ts';
import { products } from '../../db/schema/catalog.ts';
import { orders } from '../../db/schema/orders.ts';
import { orderLists } from '../../db/schema/cart.ts';

function createList(env: TestEnv, who: TestUser, body: unknown) {
  return env.request({ method: 'POST', url: '/api/lists', headers: asUser(who), payload: body as Record<string, unknown> });
}

function putListLine(env: TestEnv, who: TestUser, listId: string, productId: string, quantity: unknown) {
  return env.request({ method: 'PUT', url: `/api/lists/${listId}/lines/${productId}`, headers: asUser(who), payload: { quantity } });
}

describeEachDatabase('saved lists: /api/lists', (env) => {
  let seller: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    [seller, buyer, stranger] = await Promise.all([
      signUpUser(env(), { name: 'List Seller' }),
      signUpUser(env(), { name: 'List Buyer' }),
      signUpUser(env(), { name: 'List Stranger' }),
    ]);
  });

  it('answers 401 signed out', async () => {
    expect((await env().request({ method: 'GET', url: '/api/lists' })).statusCode).toBe(401);
    expect((await env().request({ method: 'POST', url: '/api/lists', payload: { name: 'X' } })).statusCode).toBe(401);
    expect((await env().request({ method: 'POST', url: `/api/lists/${UNKNOWN_ID}/to-cart` })).statusCode).toBe(401);
  });

  it('creates a named list with lines priced as the cart would price them, and lists the owner’s lists only', async () => {
    const pens = await seedProduct(env(), seller, { name: 'List pens', sku: `LP-${randomUUID().slice(0, 6)}`, priceCents: 250, discount: 0, minquantity: 10 });
    const created = await createList(env(), buyer, { name: '  Monthly restock ', lines: [{ productId: pens.id, quantity: 20 }] });
    expect(created.statusCode).toBe(201);
    const list = created.json() as SavedList;
    expect(list).toMatchObject({
      name: 'Monthly restock',
      lines: [{ productId: pens.id, name: 'List pens', quantity: 20, unitPrice: 2.5, lineTotal: 50, sellerName: 'List Seller', problem: null }],
    });
    const mine = (await env().request({ method: 'GET', url: '/api/lists', headers: asUser(buyer) })).json() as SavedList[];
    expect(mine.map((l) => l.id)).toContain(list.id);
    const theirs = (await env().request({ method: 'GET', url: '/api/lists', headers: asUser(stranger) })).json() as SavedList[];
    expect(theirs.map((l) => l.id)).not.toContain(list.id);
  });

  it('is private: another buyer gets 404 on every call and changes nothing', async () => {
    const product = await seedProduct(env(), seller, { minquantity: 1 });
    const list = (await createList(env(), buyer, { name: 'Private', lines: [{ productId: product.id, quantity: 3 }] })).json() as SavedList;
    const calls = [
      { method: 'GET' as const, url: `/api/lists/${list.id}` },
      { method: 'PUT' as const, url: `/api/lists/${list.id}/lines/${product.id}`, payload: { quantity: 9 } },
      { method: 'DELETE' as const, url: `/api/lists/${list.id}/lines/${product.id}` },
      { method: 'POST' as const, url: `/api/lists/${list.id}/to-cart` },
      { method: 'DELETE' as const, url: `/api/lists/${list.id}` },
    ];
    for (const call of calls) {
      const response = await env().request({ ...call, headers: asUser(stranger) });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'List not found' } });
    }
    expect((await env().request({ method: 'GET', url: `/api/lists/${list.id}`, headers: asUser(buyer) })).json()).toMatchObject({ lines: [{ quantity: 3 }] });
    expect((await getCart(env(), asUser(stranger))).count).toBe(0);
    expect((await env().request({ method: 'GET', url: '/api/lists/not-an-id', headers: asUser(buyer) })).statusCode).toBe(404);
  });

  it('sets, changes and removes lines with the cart’s rules', async () => {
    const product = await seedProduct(env(), seller, { minquantity: 12, casepack: 6 });
    const own = await seedProduct(env(), buyer, { minquantity: 1 });
    const list = (await createList(env(), buyer, { name: 'Rules' })).json() as SavedList;
    expect(list.lines).toEqual([]);
    expect((await putListLine(env(), buyer, list.id, product.id, 6)).json()).toMatchObject({ error: { code: 'BELOW_MOQ' } });
    expect((await putListLine(env(), buyer, list.id, product.id, 13)).statusCode).toBe(422);
    expect((await putListLine(env(), buyer, list.id, own.id, 1)).statusCode).toBe(403);
    expect((await putListLine(env(), buyer, list.id, UNKNOWN_ID, 1)).statusCode).toBe(404);
    expect((await putListLine(env(), buyer, list.id, product.id, 1.5)).statusCode).toBe(422);
    expect((await putListLine(env(), buyer, list.id, product.id, 18)).json()).toMatchObject({ lines: [{ productId: product.id, quantity: 18 }] });
    expect((await putListLine(env(), buyer, list.id, product.id, 24)).json()).toMatchObject({ lines: [{ quantity: 24 }] });
    const removed = await env().request({ method: 'DELETE', url: `/api/lists/${list.id}/lines/${product.id}`, headers: asUser(buyer) });
    expect(removed.json()).toMatchObject({ lines: [] });
    expect((await env().request({ method: 'DELETE', url: `/api/lists/${list.id}/lines/${product.id}`, headers: asUser(buyer) })).statusCode).toBe(404);
    expect((await putListLine(env(), buyer, list.id, product.id, 12)).statusCode).toBe(200);
    expect((await putListLine(env(), buyer, list.id, product.id, 0)).json()).toMatchObject({ lines: [] });
  });

  it('sends a list to the cart, each line answered; a deleted product says so and the rest are added', async () => {
    const me = await signUpUser(env(), { name: 'To Cart Buyer' });
    const [a, b] = [await seedProduct(env(), seller, { minquantity: 2 }), await seedProduct(env(), seller, { minquantity: 1 })];
    const list = (
      await createList(env(), me, {
        name: 'Weekly',
        lines: [
          { productId: a.id, quantity: 4 },
          { productId: b.id, quantity: 1 },
        ],
      })
    ).json() as SavedList;
    await env().db().delete(products).where(eq(products.id, b.id));
    const read = (await env().request({ method: 'GET', url: `/api/lists/${list.id}`, headers: asUser(me) })).json() as SavedList;
    expect(read.lines[1]?.problem).toMatchObject({ code: 'deleted' });
    const sent = await env().request({ method: 'POST', url: `/api/lists/${list.id}/to-cart`, headers: asUser(me) });
    expect(sent.statusCode).toBe(200);
    expect((sent.json() as CartAddAnswer).results).toEqual([
      { row: 1, status: 'added', productId: a.id, quantity: 4 },
      { row: 2, status: 'error', productId: b.id, message: 'Unknown product: it does not exist or is no longer sold.' },
    ]);
    expect((await getCart(env(), asUser(me))).lines.map((l) => [l.productId, l.quantity])).toEqual([[a.id, 4]]);
    // Again: the units go on top, as any add does.
    await env().request({ method: 'POST', url: `/api/lists/${list.id}/to-cart`, headers: asUser(me) });
    expect((await getCart(env(), asUser(me))).lines[0]?.quantity).toBe(8);
  });

  it('keeps at most 20 lists, refuses a blank name, and deletes a list', async () => {
    const me = await signUpUser(env(), { name: 'Many Lists Buyer' });
    expect((await createList(env(), me, { name: '   ' })).statusCode).toBe(422);
    expect((await createList(env(), me, { name: 'x'.repeat(81) })).statusCode).toBe(422);
    for (let i = 0; i < 20; i++) expect((await createList(env(), me, { name: `List ${i}` })).statusCode).toBe(201);
    const over = await createList(env(), me, { name: 'One too many' });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ error: { message: 'You can keep at most 20 lists; delete one first.' } });
    const [first] = (await env().request({ method: 'GET', url: '/api/lists', headers: asUser(me) })).json() as SavedList[];
    const deleted = await env().request({ method: 'DELETE', url: `/api/lists/${first!.id}`, headers: asUser(me) });
    expect(deleted.json()).toEqual({ id: first!.id, deleted: true });
    expect(await env().db().select().from(orderLists).where(eq(orderLists.id, first!.id))).toEqual([]);
    expect((await createList(env(), me, { name: 'Room again' })).statusCode).toBe(201);
  });
});

describeEachDatabase('reorder: POST /api/order/{id}/reorder', (env) => {
  let acme: TestUser;
  let globex: TestUser;

  beforeAll(async () => {
    [acme, globex] = await Promise.all([signUpUser(env(), { name: 'Reorder Acme' }), signUpUser(env(), { name: 'Reorder Globex' })]);
  });

  it('adds a delivered order’s lines to the cart at today’s prices; a product deleted since says why', async () => {
    const buyer = await signUpUser(env(), { name: 'Reorder Buyer' });
    const pens = await seedProduct(env(), acme, { name: 'Reorder pens', priceCents: 100, discount: 0, minquantity: 5 });
    const pads = await seedProduct(env(), acme, { name: 'Reorder pads', priceCents: 300, discount: 0, minquantity: 2 });
    await setLine(env(), asUser(buyer), pens.id, 10);
    const cart = await setLine(env(), asUser(buyer), pads.id, 2);
    const placed = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, randomUUID());
    expect(placed.statusCode).toBe(201);
    const [order] = (placed.json() as CheckoutAnswer).orders;
    await env().db().update(orders).set({ status: 'delivered' }).where(eq(orders.id, order!._id));
    await env().db().update(products).set({ priceCents: 120 }).where(eq(products.id, pens.id));
    await env().db().delete(products).where(eq(products.id, pads.id));

    const response = await env().request({ method: 'POST', url: `/api/order/${order!._id}/reorder`, headers: asUser(buyer) });
    expect(response.statusCode).toBe(200);
    const results = (response.json() as CartAddAnswer).results;
    expect(results).toEqual(
      expect.arrayContaining([
        { row: expect.any(Number), status: 'added', productId: pens.id, quantity: 10 },
        { row: expect.any(Number), status: 'error', message: 'This product is no longer sold.' },
      ]),
    );
    expect(results).toHaveLength(2);
    expect((await getCart(env(), asUser(buyer))).lines).toEqual([expect.objectContaining({ productId: pens.id, quantity: 10, unitPrice: 1.2, problem: null })]);
  });

  it('says why a line cannot come back (MOQ raised, sold out) and answers 404 for another buyer’s order', async () => {
    const buyer = await signUpUser(env(), { name: 'Reorder Buyer Two' });
    const stranger = await signUpUser(env(), { name: 'Reorder Stranger' });
    const kit = await seedProduct(env(), globex, { minquantity: 2, mainquantity: 100 });
    const bought = await env().request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId: kit.id, quantity: 2 } });
    expect(bought.statusCode).toBe(201);
    const orderId = (bought.json() as { _id: string })._id;
    await env().db().update(products).set({ minquantity: 5 }).where(eq(products.id, kit.id));
    const raised = (await env().request({ method: 'POST', url: `/api/order/${orderId}/reorder`, headers: asUser(buyer) })).json() as CartAddAnswer;
    expect(raised.results).toEqual([{ row: 1, status: 'error', productId: kit.id, message: 'You must buy at least 5 units.' }]);
    await env().db().update(products).set({ minquantity: 2, mainquantity: 1 }).where(eq(products.id, kit.id));
    const soldOut = (await env().request({ method: 'POST', url: `/api/order/${orderId}/reorder`, headers: asUser(buyer) })).json() as CartAddAnswer;
    expect(soldOut.results).toEqual([{ row: 1, status: 'error', productId: kit.id, message: 'we have only 1 units.' }]);
    expect((await getCart(env(), asUser(buyer))).count).toBe(0);

    expect((await env().request({ method: 'POST', url: `/api/order/${orderId}/reorder`, headers: asUser(stranger) })).statusCode).toBe(404);
    expect((await env().request({ method: 'POST', url: '/api/order/nope/reorder', headers: asUser(buyer) })).statusCode).toBe(404);
    expect((await getCart(env(), asUser(stranger))).count).toBe(0);
  });
});
