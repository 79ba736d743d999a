import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Order, Product } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { orders } from '../../db/schema/orders.ts';
import { validProductBody, readStock } from '../../../test/helpers/products.ts';
import { markVerified } from '../../../test/helpers/business.ts';

/**
 * "Prices a buyer saw" (docs/product/rules.md): POST /api/order with expectedUnitPrice places the
 * order only at that price; and no product can be listed whose cheapest unit rounds below a cent.
 */

/** $10 base, $9 from 100, $8.10 from 500 (volume breaks for verified buyers). */
const ladder = {
  price: 10,
  minquantity: 20,
  mainquantity: 10_000,
  discount: 0,
  tiers: [
    { minquantity: 100, price: 9 },
    { minquantity: 500, price: 8.1 },
  ],
};

function order(env: TestEnv, buyer: TestUser, body: Record<string, unknown>, key?: string) {
  return env.request({ method: 'POST', url: '/api/order', headers: { ...asUser(buyer), ...(key ? { 'idempotency-key': key } : {}) }, payload: body });
}

async function ordersOf(env: TestEnv, buyer: TestUser): Promise<number> {
  return (await env.db().select({ id: orders.id }).from(orders).where(eq(orders.buyerId, buyer.id))).length;
}

describeEachDatabase('the price a buyer saw (expectedUnitPrice)', (env) => {
  let seller: TestUser;
  let productId: string;
  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Expected Price Seller' });
    const listed = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody(ladder) });
    expect(listed.statusCode, listed.body).toBe(201);
    productId = (listed.json() as Product)._id;
  });

  it('places the order when the price is the one the buyer saw, with and without breaks, and without the field as before', async () => {
    const buyer = await signUpUser(env(), { name: 'Matching Buyer' });
    expect((await order(env(), buyer, { productId, quantity: 500, expectedUnitPrice: 10 })).json()).toMatchObject({ unitPrice: 10, total: 5000 });
    await markVerified(env(), buyer.id);
    expect((await order(env(), buyer, { productId, quantity: 500, expectedUnitPrice: 8.1 })).json()).toMatchObject({ unitPrice: 8.1, total: 4050 });
    expect((await order(env(), buyer, { productId, quantity: 100 })).statusCode).toBe(201);
  });

  it('answers 409 "The price changed" with the new price after the seller changes it, and places nothing', async () => {
    const buyer = await signUpUser(env(), { name: 'Changed Price Buyer' });
    const own = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody({ ...ladder, tiers: [] }) });
    const product = own.json() as Product;
    const stock = await readStock(env(), product._id);
    // The buyer saw $10.00; the seller raises it to $10.50 before Buy.
    const raised = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${product._id}`,
      headers: asUser(seller),
      payload: validProductBody({ ...ladder, tiers: [], price: 10.5 }),
    });
    expect(raised.statusCode, raised.body).toBe(200);

    const refused = await order(env(), buyer, { productId: product._id, quantity: 20, expectedUnitPrice: 10 }, 'price-changed-key-1');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: {
        code: 'PRICE_CHANGED',
        title: 'The price changed',
        message: 'The price changed: it is now $10.50 a unit (you saw $10.00). Nothing was ordered; check the new price and buy again.',
        unitPrice: 10.5,
      },
    });
    expect(await readStock(env(), product._id)).toBe(stock);
    expect(await ordersOf(env(), buyer)).toBe(0);

    // Buy again at the new price, with the same key: the refused attempt left nothing under it.
    const placed = await order(env(), buyer, { productId: product._id, quantity: 20, expectedUnitPrice: 10.5 }, 'price-changed-key-1');
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json()).toMatchObject({ unitPrice: 10.5, total: 210 });
  });

  it('compares the price this buyer pays: an unverified buyer stating the verified price is told the base price', async () => {
    const buyer = await signUpUser(env(), { name: 'Unverified Expecting Buyer' });
    const refused = await order(env(), buyer, { productId, quantity: 500, expectedUnitPrice: 8.1 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'PRICE_CHANGED', unitPrice: 10 } });
    // A discount counts too: the price after it is the one compared.
    const discounted = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: asUser(seller),
      payload: validProductBody({ ...ladder, tiers: [], discount: 15 }),
    });
    const id = (discounted.json() as Product)._id;
    expect((await order(env(), buyer, { productId: id, quantity: 20, expectedUnitPrice: 10 })).json()).toMatchObject({ error: { unitPrice: 8.5 } });
    expect((await order(env(), buyer, { productId: id, quantity: 20, expectedUnitPrice: 8.5 })).json() as Order).toMatchObject({ unitPrice: 8.5 });
  });

  it.each([
    ['three decimals', 10.001],
    ['negative', -1],
    ['a string', '10'],
  ])('refuses an expectedUnitPrice that is %s with 422 on the field', async (_what, expectedUnitPrice) => {
    const buyer = await signUpUser(env(), { name: 'Odd Expectation Buyer' });
    const response = await order(env(), buyer, { productId, quantity: 20, expectedUnitPrice });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().error.fieldErrors)).toEqual(['expectedUnitPrice']);
    expect(await ordersOf(env(), buyer)).toBe(0);
  });
});

describeEachDatabase('no unit price below one cent', (env) => {
  let seller: TestUser;
  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Tiny Price Seller' });
  });
  const add = (overrides: Record<string, unknown>) =>
    env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody({ minquantity: 1, tiers: [], ...overrides }) });

  it.each([
    ['$0.04 at 90% off', { price: 0.04, discount: 90 }, '$0.04'],
    ['$0.01 at 51% off', { price: 0.01, discount: 51 }, '$0.01'],
    ['a break at $0.04 at 90% off', { price: 1, discount: 90, minquantity: 10, tiers: [{ minquantity: 100, price: 0.04 }] }, '$0.04'],
  ])('refuses %s (422 on discount) at create and at update', async (_what, ladderFields, cheapest) => {
    const response = await add(ladderFields);
    expect(response.statusCode).toBe(422);
    const message = `With ${ladderFields.discount}% off, the lowest unit price (${cheapest}) comes to less than one cent: lower the discount or raise the price`;
    expect(response.json().error.fieldErrors).toEqual({ discount: [message] });

    const listed = await add({ price: 1, discount: 0 });
    expect(listed.statusCode, listed.body).toBe(201);
    const id = (listed.json() as Product)._id;
    const updated = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${id}`,
      headers: asUser(seller),
      payload: validProductBody({ minquantity: 1, tiers: [], ...ladderFields }),
    });
    expect(updated.statusCode).toBe(422);
    expect(updated.json().error.fieldErrors).toEqual({ discount: [message] });
    expect(((await env().request({ method: 'GET', url: `/api/product/${id}` })).json() as Product).discount).toBe(0);
  });

  it('accepts the cheapest prices that still round to a cent ($0.05 at 90% off, $0.01 at 50% off) and charges that cent', async () => {
    const fiveCents = await add({ price: 0.05, discount: 90 });
    expect(fiveCents.statusCode, fiveCents.body).toBe(201);
    expect((await add({ price: 0.01, discount: 50 })).statusCode).toBe(201);
    const buyer = await signUpUser(env(), { name: 'Cent Buyer' });
    const bought = await order(env(), buyer, { productId: (fiveCents.json() as Product)._id, quantity: 3, expectedUnitPrice: 0.01 });
    expect(bought.json()).toMatchObject({ unitPrice: 0.01, total: 0.03 });
  });
});
