import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Order, Product } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { orders } from '../../db/schema/orders.ts';
import { products } from '../../db/schema/catalog.ts';
import { validProductBody, readProductRow, readStock } from '../../../test/helpers/products.ts';
import { markVerified } from '../../../test/helpers/business.ts';

function addProduct(env: TestEnv, seller: TestUser, overrides: Record<string, unknown>) {
  return env.request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody(overrides) });
}

function buy(env: TestEnv, buyer: TestUser, productId: string, quantity: number) {
  return env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity } });
}

async function countProducts(env: TestEnv): Promise<number> {
  return (await env.db().select({ id: products.id }).from(products)).length;
}

/** The wholesale ladder of docs/decisions/007: $10 base, $9 from 100, $8.10 from 500. */
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

describeEachDatabase('wholesale pricing over the API', (env) => {
  let seller: TestUser;
  let buyer: TestUser;
  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Pricing Seller' });
    buyer = await signUpUser(env(), { name: 'Pricing Buyer' });
    // Volume breaks go to verified businesses (docs/decisions/014-business-verification.md).
    await markVerified(env(), buyer.id);
  });

  it('stores prices with cents and answers them as dollars, with the breaks and the case pack', async () => {
    const response = await addProduct(env(), seller, { price: 0.35, minquantity: 100, casepack: 50, discount: 0, tiers: [{ minquantity: 1000, price: 0.29 }] });
    expect(response.statusCode).toBe(201);
    const product = response.json() as Product;
    expect(product).toMatchObject({ price: 0.35, casepack: 50, tiers: [{ minquantity: 1000, price: 0.29 }] });
    const row = await readProductRow(env(), product._id);
    expect(row).toMatchObject({ priceCents: 35, casepack: 50, priceBreaks: [{ minquantity: 1000, priceCents: 29 }] });
    const read = (await env().request({ method: 'GET', url: `/api/product/${product._id}` })).json() as Product;
    expect(read).toMatchObject({ price: 0.35, casepack: 50, tiers: [{ minquantity: 1000, price: 0.29 }] });
  });

  it('answers a product without breaks with tiers [] and case pack 1, as clients sending only the spec fields expect', async () => {
    const body = validProductBody();
    delete body.casepack;
    delete body.tiers;
    const response = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: body });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ price: 12, casepack: 1, tiers: [] });
  });

  const refusals: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    [
      'a break at the minimum',
      { minquantity: 20, tiers: [{ minquantity: 20, price: 11 }] },
      { 'tiers.0.minquantity': ['Must be more than the min buy quantity (20)'] },
    ],
    ['a break not below the price', { price: 12, tiers: [{ minquantity: 50, price: 12 }] }, { 'tiers.0.price': ['Must be less than the price ($12)'] }],
    [
      'thresholds out of order',
      {
        price: 12,
        tiers: [
          { minquantity: 100, price: 11 },
          { minquantity: 50, price: 10 },
        ],
      },
      { 'tiers.1.minquantity': ['Must be more than the previous break (100)'] },
    ],
    [
      'a later break dearer than the one before',
      {
        price: 12,
        tiers: [
          { minquantity: 50, price: 10 },
          { minquantity: 100, price: 10.5 },
        ],
      },
      { 'tiers.1.price': ["Must be less than the previous break's price ($10)"] },
    ],
    [
      'a break price with three decimals',
      { price: 12, tiers: [{ minquantity: 50, price: 10.005 }] },
      { 'tiers.0.price': ['Break price can have at most two decimals (cents)'] },
    ],
    ['a price with three decimals', { price: 1.234 }, { price: ['Price can have at most two decimals (cents)'] }],
    ['a price of 0', { price: 0 }, { price: ['Price must be at least $0.01'] }],
    [
      'six breaks',
      { price: 100, tiers: [30, 40, 50, 60, 70, 80].map((minquantity, i) => ({ minquantity, price: 90 - i })) },
      { tiers: ['At most 5 volume breaks'] },
    ],
    ['a minimum that is not whole cases', { minquantity: 20, casepack: 12 }, { minquantity: ['Min buy quantity must be a multiple of the case pack (12)'] }],
    ['a case pack of 0', { casepack: 0 }, { casepack: ['Case pack must be at least 1'] }],
  ];

  for (const [what, overrides, fieldErrors] of refusals) {
    it(`refuses ${what} with 422 fieldErrors and writes nothing`, async () => {
      const before = await countProducts(env());
      const response = await addProduct(env(), seller, overrides);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors } });
      expect(await countProducts(env())).toBe(before);
    });
  }

  it('refuses a bad ladder on update and leaves the row as it was', async () => {
    const product = (await addProduct(env(), seller, ladder)).json() as Product;
    const response = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${product._id}`,
      headers: asUser(seller),
      payload: validProductBody({
        ...ladder,
        tiers: [
          { minquantity: 100, price: 9 },
          { minquantity: 500, price: 9.5 },
        ],
      }),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { fieldErrors: { 'tiers.1.price': ["Must be less than the previous break's price ($9)"] } } });
    expect((await readProductRow(env(), product._id))?.priceBreaks).toEqual([
      { minquantity: 100, priceCents: 900 },
      { minquantity: 500, priceCents: 810 },
    ]);
  });

  const paid: Array<[string, number, number, { unitPrice: number; total: number; listUnitPrice: number; tierMinquantity: number | null }]> = [
    ['the base price below the first break', 0, 99, { unitPrice: 10, total: 990, listUnitPrice: 10, tierMinquantity: null }],
    ['the first break at its threshold', 0, 100, { unitPrice: 9, total: 900, listUnitPrice: 10, tierMinquantity: 100 }],
    ['the first break just below the second', 0, 499, { unitPrice: 9, total: 4491, listUnitPrice: 10, tierMinquantity: 100 }],
    ['the second break', 0, 500, { unitPrice: 8.1, total: 4050, listUnitPrice: 10, tierMinquantity: 500 }],
    ['the base price less 15%', 15, 99, { unitPrice: 8.5, total: 841.5, listUnitPrice: 10, tierMinquantity: null }],
    ['the first break less 15%', 15, 100, { unitPrice: 7.65, total: 765, listUnitPrice: 10, tierMinquantity: 100 }],
    // 810 × 0.85 = 688.5 cents: half up to 689.
    ['the second break less 15%, rounded half up', 15, 500, { unitPrice: 6.89, total: 3445, listUnitPrice: 10, tierMinquantity: 500 }],
  ];

  for (const [what, discount, quantity, expected] of paid) {
    it(`charges ${what} (${quantity} units, ${discount}% off) and stores it`, async () => {
      const product = (await addProduct(env(), seller, { ...ladder, discount })).json() as Product;
      const response = await buy(env(), buyer, product._id, quantity);
      expect(response.statusCode).toBe(201);
      const order = response.json() as Order;
      expect(order).toMatchObject({ quantity, ...expected });
      const [row] = await env().db().select().from(orders).where(eq(orders.id, order._id));
      expect(row).toMatchObject({
        unitPriceCents: Math.round(expected.unitPrice * 100),
        lineTotalCents: Math.round(expected.total * 100),
        listUnitPriceCents: 1000,
        tierMinquantity: expected.tierMinquantity,
      });
      const listed = (await env().request({ method: 'GET', url: `/api/orders/${encodeURIComponent(buyer.email)}`, headers: asUser(buyer) })).json() as Order[];
      expect(listed.find((o) => o._id === order._id)).toMatchObject(expected);
    });
  }

  it('refuses a quantity that is not whole cases with 422 and changes nothing', async () => {
    const product = (await addProduct(env(), seller, { price: 5, minquantity: 24, casepack: 12, mainquantity: 1000, tiers: [] })).json() as Product;
    const response = await buy(env(), buyer, product._id, 30);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      error: {
        code: 'VALIDATION',
        title: 'Whole cases only',
        message: 'This product is sold in cases of 12: order a multiple of 12 units.',
        fieldErrors: { quantity: ['This product is sold in cases of 12: order a multiple of 12 units.'] },
      },
    });
    expect(await readStock(env(), product._id)).toBe(1000);
    expect(await env().db().select().from(orders).where(eq(orders.productId, product._id))).toEqual([]);
    expect((await buy(env(), buyer, product._id, 36)).statusCode).toBe(201);
    expect(await readStock(env(), product._id)).toBe(964);
  });

  it('still refuses below the minimum and over the stock with the spec texts, in that order', async () => {
    const product = (await addProduct(env(), seller, { price: 5, minquantity: 24, casepack: 12, mainquantity: 48, tiers: [] })).json() as Product;
    expect((await buy(env(), buyer, product._id, 13)).json()).toMatchObject({ error: { code: 'BELOW_MOQ', message: 'You must buy at least 24 units.' } });
    expect((await buy(env(), buyer, product._id, 60)).json()).toMatchObject({ error: { code: 'OUT_OF_STOCK', message: 'we have only 48 units.' } });
    expect(await readStock(env(), product._id)).toBe(48);
  });
});
