import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { readStock, seedProduct, UNKNOWN_ID } from '../../../test/helpers/products.ts';
import { setLine } from '../../../test/helpers/cart.ts';

function putSettings(env: TestEnv, who: TestUser | null, body: unknown) {
  return env.request({ method: 'PUT', url: '/api/seller/settings', headers: who ? asUser(who) : {}, payload: body as Record<string, unknown> });
}

describeEachDatabase('seller settings: the minimum order value', (env) => {
  let seller: TestUser;
  let buyer: TestUser;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Minimum Seller' });
    buyer = await signUpUser(env(), { name: 'Minimum Buyer' });
  });

  it('answers 401 signed out, and none set reads as null', async () => {
    expect((await env().request({ method: 'GET', url: '/api/seller/settings' })).statusCode).toBe(401);
    expect((await putSettings(env(), null, { minimumOrder: 10 })).statusCode).toBe(401);
    const fresh = await signUpUser(env(), { name: 'Fresh Seller' });
    expect((await env().request({ method: 'GET', url: '/api/seller/settings', headers: asUser(fresh) })).json()).toEqual({ minimumOrder: null });
  });

  it('sets, reads and clears the caller’s own minimum', async () => {
    const own = await signUpUser(env(), { name: 'Own Settings Seller' });
    expect((await putSettings(env(), own, { minimumOrder: 150.5 })).json()).toEqual({ minimumOrder: 150.5 });
    expect((await env().request({ method: 'GET', url: '/api/seller/settings', headers: asUser(own) })).json()).toEqual({ minimumOrder: 150.5 });
    // Another seller's settings are theirs alone.
    expect((await env().request({ method: 'GET', url: '/api/seller/settings', headers: asUser(buyer) })).json()).toEqual({ minimumOrder: null });
    expect((await putSettings(env(), own, { minimumOrder: null })).json()).toEqual({ minimumOrder: null });
    expect((await env().request({ method: 'GET', url: '/api/seller/settings', headers: asUser(own) })).json()).toEqual({ minimumOrder: null });
  });

  it.each([
    ['negative', -5],
    ['zero', 0],
    ['three decimals', 10.555],
    ['a string', '10'],
    ['missing', undefined],
    ['too large', 1_000_001],
  ])('refuses a minimum that is %s (422)', async (_label, minimumOrder) => {
    const response = await putSettings(env(), seller, minimumOrder === undefined ? {} : { minimumOrder });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { minimumOrder: [expect.any(String)] } } });
  });

  it('shows the seller and their minimum with the product, to anyone', async () => {
    expect((await putSettings(env(), seller, { minimumOrder: 100 })).statusCode).toBe(200);
    const product = await seedProduct(env(), seller, {});
    const read = await env().request({ method: 'GET', url: `/api/product/${product.id}/seller` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ sellerName: 'Minimum Seller', minimumOrder: 100 });
    expect((await env().request({ method: 'GET', url: `/api/product/${UNKNOWN_ID}/seller` })).statusCode).toBe(404);
    expect((await env().request({ method: 'GET', url: '/api/product/nope/seller' })).statusCode).toBe(404);
  });

  it('applies to Buy Now: an order below it is a 422 naming what is missing, and no stock moves', async () => {
    expect((await putSettings(env(), seller, { minimumOrder: 100 })).statusCode).toBe(200);
    const product = await seedProduct(env(), seller, { priceCents: 500, discount: 0, minquantity: 1, mainquantity: 100 });
    const small = await env().request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId: product.id, quantity: 19 } });
    expect(small.statusCode).toBe(422);
    expect(small.json()).toEqual({
      error: { code: 'VALIDATION', title: 'Minimum order not met', message: 'The minimum order from Minimum Seller is $100.00: add $5.00 more.' },
    });
    expect(await readStock(env(), product.id)).toBe(100);
    const enough = await env().request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId: product.id, quantity: 20 } });
    expect(enough.statusCode).toBe(201);
    expect(await readStock(env(), product.id)).toBe(80);
  });

  it('shows each seller group’s minimum and what is missing in the cart', async () => {
    expect((await putSettings(env(), seller, { minimumOrder: 100 })).statusCode).toBe(200);
    const me = await signUpUser(env(), { name: 'Group Minimum Buyer' });
    const product = await seedProduct(env(), seller, { priceCents: 1530, discount: 0, minquantity: 5 });
    const cart = await setLine(env(), asUser(me), product.id, 5);
    expect(cart.sellers).toEqual([{ sellerId: seller.id, sellerName: 'Minimum Seller', subtotal: 76.5, minimumOrder: 100, shortBy: 23.5 }]);
    expect((await setLine(env(), asUser(me), product.id, 7)).sellers[0]).toMatchObject({ subtotal: 107.1, shortBy: 0 });
  });
});
