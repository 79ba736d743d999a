import { beforeAll, expect, it } from 'vitest';
import type { Order, Product } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { validProductBody } from '../../../test/helpers/products.ts';

function add(env: TestEnv, who: TestUser, overrides: Record<string, unknown>) {
  return env.request({ method: 'POST', url: '/api/addproduct', headers: asUser(who), payload: validProductBody(overrides) });
}

function update(env: TestEnv, who: TestUser, id: string, overrides: Record<string, unknown>) {
  return env.request({ method: 'PUT', url: `/api/updateproduct/${id}`, headers: asUser(who), payload: validProductBody(overrides) });
}

describeEachDatabase('SKUs on products', (env) => {
  let seller: TestUser;
  let otherSeller: TestUser;
  let buyer: TestUser;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Sku Seller' });
    otherSeller = await signUpUser(env(), { name: 'Other Sku Seller' });
    buyer = await signUpUser(env(), { name: 'Sku Buyer' });
  });

  it('keeps a SKU on add, answers it on every read, and null when none was given', async () => {
    const added = await add(env(), seller, { sku: '  KET-17/blk.v2_a ' });
    expect(added.statusCode).toBe(201);
    const product = added.json() as Product;
    expect(product.sku).toBe('KET-17/blk.v2_a');
    const read = (await env().request({ method: 'GET', url: `/api/product/${product._id}` })).json() as Product;
    expect(read.sku).toBe('KET-17/blk.v2_a');
    const own = (await env().request({ method: 'GET', url: `/api/products/${encodeURIComponent(seller.email)}`, headers: asUser(seller) })).json() as Product[];
    expect(own.find((p) => p._id === product._id)?.sku).toBe('KET-17/blk.v2_a');

    const bare = await add(env(), seller, { sku: '' });
    expect(bare.statusCode).toBe(201);
    expect((bare.json() as Product).sku).toBeNull();
  });

  it('refuses a SKU the same seller already uses, in any case, with a 409 naming it; nothing is added', async () => {
    expect((await add(env(), seller, { sku: 'DUP-001', name: 'First' })).statusCode).toBe(201);
    const again = await add(env(), seller, { sku: 'dup-001', name: 'Second' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: {
        code: 'CONFLICT',
        title: 'SKU already used',
        message: 'You already have a product with SKU dup-001.',
        fieldErrors: { sku: ['You already have a product with SKU dup-001.'] },
      },
    });
    const own = (
      await env().request({ method: 'GET', url: `/api/products/${encodeURIComponent(seller.email)}?limit=200`, headers: asUser(seller) })
    ).json() as Product[];
    expect(own.filter((p) => p.name === 'Second')).toHaveLength(0);
  });

  it('lets another seller reuse a SKU', async () => {
    expect((await add(env(), seller, { sku: 'SHARED-9' })).statusCode).toBe(201);
    const other = await add(env(), otherSeller, { sku: 'shared-9' });
    expect(other.statusCode).toBe(201);
    expect((other.json() as Product).sku).toBe('shared-9');
  });

  it('refuses an update to a SKU taken by another of the seller’s products, and keeps the product as it was', async () => {
    expect((await add(env(), seller, { sku: 'UPD-A' })).statusCode).toBe(201);
    const b = (await add(env(), seller, { sku: 'UPD-B', name: 'Product B' })).json() as Product;
    const clash = await update(env(), seller, b._id, { sku: 'Upd-A', name: 'Renamed B' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ error: { message: 'You already have a product with SKU Upd-A.' } });
    const read = (await env().request({ method: 'GET', url: `/api/product/${b._id}` })).json() as Product;
    expect(read).toMatchObject({ sku: 'UPD-B', name: 'Product B' });
    // Keeping its own SKU (another case of it) is no clash.
    const same = await update(env(), seller, b._id, { sku: 'upd-b' });
    expect(same.statusCode).toBe(200);
    expect((same.json() as Product).sku).toBe('upd-b');
  });

  it.each([
    ['a space inside', 'AB 12'],
    ['a comma', 'AB,12'],
    ['a quote', "AB'12"],
    ['a letter outside ASCII', 'ÄB-12'],
    ['65 characters', 'A'.repeat(65)],
    ['a number', 1234],
  ])('refuses a SKU with %s (422 on the field), adding nothing', async (_label, sku) => {
    const response = await add(env(), seller, { sku, name: 'Odd SKU' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { sku: [expect.any(String)] } } });
  });

  it('copies the SKU onto the order line, where it stays after the seller changes it', async () => {
    const product = (await add(env(), seller, { sku: 'ORD-77', minquantity: 1, mainquantity: 50 })).json() as Product;
    const bought = await env().request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId: product._id, quantity: 2 } });
    expect(bought.statusCode).toBe(201);
    const order = bought.json() as Order;
    expect(order.lines[0]?.product.sku).toBe('ORD-77');
    expect(order.product.sku).toBe('ORD-77');
    expect((await update(env(), seller, product._id, { sku: 'ORD-78', minquantity: 1, mainquantity: 50 })).statusCode).toBe(200);
    const again = (await env().request({ method: 'GET', url: `/api/order/${order._id}`, headers: asUser(buyer) })).json() as Order;
    expect(again.lines[0]?.product.sku).toBe('ORD-77');
    const sale = await env().request({ method: 'GET', url: `/api/sales/${order._id}`, headers: asUser(seller) });
    expect(sale.statusCode).toBe(200);
    expect((sale.json() as Order).lines[0]?.product.sku).toBe('ORD-77');
  });
});
