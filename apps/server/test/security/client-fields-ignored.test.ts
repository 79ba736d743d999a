import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Order, Product } from '@bulkcart/contracts';
import { orders } from '../../src/db/schema/orders.ts';
import { describeEachDatabase } from '../helpers/test-app.ts';
import { signUpUser, type TestUser } from '../helpers/accounts.ts';
import { readProductRow, seedProduct, validProductBody } from '../helpers/products.ts';
import { takeSnapshot } from './support/db-snapshot.ts';

/**
 * Ownership, authorship and prices come from the session and the catalog, never from the body
 * (docs/product/rules.md). Each case sends the fields a forger would, then reads the database itself.
 */
describeEachDatabase('client-sent ownership and price fields are ignored', (env) => {
  let owner: TestUser;
  let mallory: TestUser;

  beforeAll(async () => {
    [owner, mallory] = await Promise.all([signUpUser(env(), { name: 'Honest Seller' }), signUpUser(env(), { name: 'Mallory Forger' })]);
  });

  const forged = () => ({
    useremail: mallory.email,
    updatedby: mallory.email,
    ownerId: mallory.id,
    owner_id: mallory.id,
    ownerEmail: mallory.email,
    priceCents: 1,
    createdAt: '2000-01-01T00:00:00.000Z',
  });

  it('POST /api/addproduct: the owner is the session user, whatever the body names', async () => {
    const response = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: { cookie: owner.cookie },
      payload: { ...validProductBody({ price: 12 }), ...forged() },
    });
    expect(response.statusCode).toBe(201);
    const product = response.json() as Product;
    expect(product).toMatchObject({ useremail: owner.email, updatedby: null, price: 12 });
    expect(product.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
    expect(await readProductRow(env(), product._id)).toMatchObject({ ownerId: owner.id, ownerEmail: owner.email, updatedBy: null, priceCents: 1_200 });
  });

  it('PUT /api/updateproduct: updatedby is the session user and the owner stays; a forger naming himself owner is still refused', async () => {
    const row = await seedProduct(env(), owner, { priceCents: 900 });
    const refusedBefore = await takeSnapshot(env().db());
    const refused = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${row.id}`,
      headers: { cookie: mallory.cookie },
      payload: { ...validProductBody(), ...forged(), useremail: mallory.email },
    });
    expect(refused.statusCode).toBe(403);
    expect(await takeSnapshot(env().db())).toEqual(refusedBefore);

    const response = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${row.id}`,
      headers: { cookie: owner.cookie },
      payload: { ...validProductBody({ price: 30 }), ...forged() },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ useremail: owner.email, updatedby: owner.email, price: 30 });
    expect(await readProductRow(env(), row.id)).toMatchObject({ ownerId: owner.id, ownerEmail: owner.email, updatedBy: owner.email, priceCents: 3_000 });
  });

  it('PATCH /api/products/{id}: only the quantity counts; ownership and price fields in the body change nothing', async () => {
    const row = await seedProduct(env(), owner, { mainquantity: 100, priceCents: 900 });
    const response = await env().request({
      method: 'PATCH',
      url: `/api/products/${row.id}`,
      headers: { cookie: owner.cookie },
      payload: { quantity: -10, price: 1, mainquantity: 5, ...forged() },
    });
    expect(response.statusCode).toBe(200);
    expect(await readProductRow(env(), row.id)).toMatchObject({ mainquantity: 90, priceCents: 900, ownerId: owner.id, ownerEmail: owner.email });
  });

  it('POST /api/order: buyer, date and unit price come from the session, the clock and the catalog', async () => {
    const product = await seedProduct(env(), owner, { mainquantity: 500, minquantity: 10, priceCents: 2_000, discount: 25 });
    const body = {
      productId: product.id,
      quantity: 10,
      price: 0,
      unitPrice: 0.01,
      unitPriceCents: 1,
      discount: 90,
      buyerEmail: owner.email,
      buyerName: 'Somebody Else',
      buyerId: owner.id,
      useremail: owner.email,
      data: '1/1/2000',
      createdAt: '2000-01-01T00:00:00.000Z',
      cancelledAt: '2000-01-01T00:00:00.000Z',
    };
    const response = await env().request({ method: 'POST', url: '/api/order', headers: { authorization: `Bearer ${mallory.token}` }, payload: body });
    expect(response.statusCode).toBe(201);
    const order = response.json() as Order;
    expect(order.unitPrice).toBe(15);
    expect(order.data).not.toBe('1/1/2000');
    const [row] = await env().db().select().from(orders).where(eq(orders.id, order._id));
    expect(row).toMatchObject({ buyerId: mallory.id, buyerEmail: mallory.email, buyerName: 'Mallory Forger', unitPriceCents: 1_500, cancelledAt: null });

    // It is Mallory's order: listed for her, not for the account the body named.
    const mine = await env().request({ method: 'GET', url: `/api/orders/${encodeURIComponent(mallory.email)}`, headers: { cookie: mallory.cookie } });
    expect((mine.json() as Order[]).map((o) => o._id)).toContain(order._id);
    const theirs = await env().request({ method: 'GET', url: `/api/orders/${encodeURIComponent(owner.email)}`, headers: { cookie: owner.cookie } });
    expect((theirs.json() as Order[]).map((o) => o._id)).not.toContain(order._id);
  });

  it('POST /api/auth/sign-up/email: extra user fields (id, emailVerified, role) are not stored', async () => {
    const email = `forger-${Date.now()}@example.com`;
    const response = await env().request({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: {
        name: 'Forged Fields',
        email,
        password: 'Passw0rd',
        id: 'chosen-id',
        emailVerified: true,
        role: 'admin',
        createdAt: '2000-01-01T00:00:00.000Z',
      },
    });
    expect(response.statusCode).toBe(200);
    const snapshot = JSON.parse((await takeSnapshot(env().db())).users) as Array<Record<string, unknown>>;
    const stored = snapshot.find((u) => u.email === email);
    expect(stored).toMatchObject({ email_verified: false });
    expect(stored?.id).not.toBe('chosen-id');
    expect(stored).not.toHaveProperty('role');
    expect(String(stored?.created_at)).not.toContain('2000-01-01');
  });
});
