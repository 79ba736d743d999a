import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { LIMITS } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { products } from '../../db/schema/catalog.ts';
import { bearer, insertBuyers } from '../../../test/helpers/accounts.ts';
import { OTHER_SELLER, readStock, seedProduct } from '../../../test/helpers/products.ts';

/**
 * docs/decisions/007-request-paths.md: stock arithmetic stays within 0…LIMITS.quantityMax in every direction. A cancel gives the
 * units back, but never past the cap a seller may set, so every cancel succeeds.
 */

const HALF = 600_000_000;

async function setStock(env: TestEnv, productId: string, mainquantity: number): Promise<void> {
  // What a seller's stock-up (PATCH, held to the cap) leaves behind, written straight to the table.
  await env.db().update(products).set({ mainquantity }).where(eq(products.id, productId));
}

describeEachDatabase('cancelling an order near the stock cap', (env) => {
  it('holds stock at the cap when a cancel would pass it, and the next cancel still succeeds', async () => {
    const [buyer] = await insertBuyers(env().db(), 1);
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: LIMITS.quantityMax, minquantity: 1, priceCents: 100 });
    const placeOrder = async () => {
      const response = await env().request({ method: 'POST', url: '/api/order', headers: bearer(buyer!), payload: { productId, quantity: HALF } });
      expect(response.statusCode, response.body).toBe(201);
      return (response.json() as { _id: string })._id;
    };
    const first = await placeOrder();
    await setStock(env(), productId, LIMITS.quantityMax);
    const second = await placeOrder();
    await setStock(env(), productId, LIMITS.quantityMax);

    for (const id of [first, second]) {
      const cancel = await env().request({ method: 'DELETE', url: `/api/order/${id}`, headers: bearer(buyer!) });
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(cancel.json()).toEqual({ _id: id, cancelled: true });
      expect(await readStock(env(), productId)).toBe(LIMITS.quantityMax);
    }
  });

  it('gives back every unit when the cap is not in the way', async () => {
    const [buyer] = await insertBuyers(env().db(), 1);
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 1_000, minquantity: 10 });
    const order = await env().request({ method: 'POST', url: '/api/order', headers: bearer(buyer!), payload: { productId, quantity: 250 } });
    expect(order.statusCode).toBe(201);
    expect(await readStock(env(), productId)).toBe(750);
    const cancel = await env().request({ method: 'DELETE', url: `/api/order/${(order.json() as { _id: string })._id}`, headers: bearer(buyer!) });
    expect(cancel.statusCode).toBe(200);
    expect(await readStock(env(), productId)).toBe(1_000);
  });
});
