import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Order, Product } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { validProductBody } from '../../../test/helpers/products.ts';
import { dayFromToday, markVerified } from '../../../test/helpers/business.ts';
import { user } from '../../db/schema/auth.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import { products } from '../../db/schema/catalog.ts';
import { sellerSettings } from '../../db/schema/cart.ts';
import { emailOutbox } from '../../db/schema/notifications.ts';

/**
 * docs/decisions/029-buy-now-one-statement.md: a purchase placed from what this process remembers of an
 * earlier one (no read) is priced, refused and addressed exactly as one that read first. Each change
 * below is made straight in the database, as another server process would make it, after a first
 * purchase has filled the memory.
 */

async function addProduct(env: TestEnv, seller: TestUser, overrides: Record<string, unknown> = {}): Promise<Product> {
  const response = await env.request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Product;
}

function buy(env: TestEnv, buyer: TestUser, productId: string, quantity: number) {
  return env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity } });
}

async function placed(env: TestEnv, buyer: TestUser, productId: string, quantity: number): Promise<Order> {
  const response = await buy(env, buyer, productId, quantity);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Order;
}

const numberOf = (order: Order) => Number(order.number.slice(3));

/** $10, $9 from 100 units: the break goes to verified buyers only (decision 014). */
const ladder = { price: 10, minquantity: 20, mainquantity: 10_000, discount: 0, tiers: [{ minquantity: 100, price: 9 }] };

describeEachDatabase(
  'Buy Now from what the process remembers',
  (env) => {
    let seller: TestUser;
    let buyer: TestUser;
    beforeAll(async () => {
      seller = await signUpUser(env(), { name: 'Memo Seller' });
      buyer = await signUpUser(env(), { name: 'Memo Buyer' });
      await markVerified(env(), buyer.id);
    });

    it('numbers one process’s orders one after the other, each number once', async () => {
      const product = await addProduct(env(), seller, ladder);
      const orders = [];
      for (let i = 0; i < 4; i++) orders.push(await placed(env(), buyer, product._id, 20));
      const numbers = orders.map(numberOf);
      expect(numbers.slice(1)).toEqual(numbers.slice(0, -1).map((n) => n + 1));
    });

    it('takes the volume break away at once when the buyer’s verification lapses or is taken back', async () => {
      const product = await addProduct(env(), seller, ladder);
      expect((await placed(env(), buyer, product._id, 100)).unitPrice).toBe(9);
      await env()
        .db()
        .update(businessProfiles)
        .set({ permitExpires: dayFromToday(0) })
        .where(eq(businessProfiles.userId, buyer.id));
      expect((await placed(env(), buyer, product._id, 100)).unitPrice).toBe(10);
      await markVerified(env(), buyer.id);
      expect((await placed(env(), buyer, product._id, 100)).unitPrice).toBe(9);
      await env().db().update(businessProfiles).set({ status: 'rejected' }).where(eq(businessProfiles.userId, buyer.id));
      expect((await placed(env(), buyer, product._id, 100)).unitPrice).toBe(10);
      await markVerified(env(), buyer.id);
    });

    it('prices at the seller’s new price and honours a minimum order set meanwhile', async () => {
      const product = await addProduct(env(), seller, ladder);
      expect((await placed(env(), buyer, product._id, 20)).total).toBe(200);
      await env().db().update(products).set({ priceCents: 1100 }).where(eq(products.id, product._id));
      expect((await placed(env(), buyer, product._id, 20)).total).toBe(220);
      await env().db().insert(sellerSettings).values({ userId: seller.id, minimumOrderCents: 50_000 });
      try {
        const refused = await buy(env(), buyer, product._id, 20);
        expect(refused.statusCode, refused.body).toBe(422);
        expect(refused.json()).toMatchObject({ error: { title: 'Minimum order not met' } });
      } finally {
        await env().db().delete(sellerSettings).where(eq(sellerSettings.userId, seller.id));
      }
    });

    it('writes the seller’s new name on the order, and tells the seller’s new address', async () => {
      const product = await addProduct(env(), seller, ladder);
      expect((await placed(env(), buyer, product._id, 20)).sellerName).toBe('Memo Seller');
      const newAddress = `renamed-${seller.email}`;
      try {
        await env().db().update(user).set({ name: 'Memo Seller Renamed' }).where(eq(user.id, seller.id));
        expect((await placed(env(), buyer, product._id, 20)).sellerName).toBe('Memo Seller Renamed');
        await env().db().update(user).set({ email: newAddress }).where(eq(user.id, seller.id));
        const order = await placed(env(), buyer, product._id, 20);
        const told = await env().db().select({ to: emailOutbox.toEmail, body: emailOutbox.body }).from(emailOutbox);
        expect(told.filter((mail) => mail.body.includes(order.number)).map((mail) => mail.to)).toEqual([newAddress]);
      } finally {
        await env().db().update(user).set({ name: 'Memo Seller', email: seller.email }).where(eq(user.id, seller.id));
      }
    });

    it('sells what was restocked after a refusal, and refuses what ran out after a sale', async () => {
      const product = await addProduct(env(), seller, { ...ladder, mainquantity: 40 });
      await placed(env(), buyer, product._id, 40);
      expect((await buy(env(), buyer, product._id, 20)).statusCode).toBe(409);
      await env().db().update(products).set({ mainquantity: 60 }).where(eq(products.id, product._id));
      await placed(env(), buyer, product._id, 40);
      const refused = await buy(env(), buyer, product._id, 40);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ error: { code: 'OUT_OF_STOCK' } });
    });
  },
  // Order e-mails are written to the outbox only when the server sends mail; none is sent here.
  { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_INTERVAL_MS: '3600000' },
);
