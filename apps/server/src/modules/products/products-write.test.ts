import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Product } from '@bulkcart/contracts';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { orders, products } from '../../db/schema/index.ts';
import { readProductRow, seedProduct, UNKNOWN_ID, validProductBody } from '../../../test/helpers/products.ts';

describeEachDatabase('adding, updating and deleting products', (env) => {
  let seller: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Writing Seller' });
    stranger = await signUpUser(env(), { name: 'Stranger Danger' });
  });

  // --- POST /api/addproduct -------------------------------------------------------------------

  it('adds a product owned by the signed-in user and answers 201 with it', async () => {
    const response = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody() });
    expect(response.statusCode).toBe(201);
    const product = response.json() as Product;
    // Every field sent comes back as sent; an empty image3 is stored as none.
    expect(product).toEqual({
      ...validProductBody(),
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      image3: null,
      useremail: seller.email,
      updatedby: null,
      createdAt: expect.any(String),
      casepack: 1,
      tiers: [],
      sku: null,
      unlisted: false,
    });
    const row = await readProductRow(env(), product._id);
    expect(row).toMatchObject({ ownerId: seller.id, ownerEmail: seller.email, priceCents: 1200, content: 'Ships in master cartons of 12.' });

    // It is readable right away, and it is the newest product.
    const read = await env().request({ method: 'GET', url: `/api/product/${product._id}` });
    expect(read.json()).toEqual(product);
    const first = (await env().request({ method: 'GET', url: '/api/allproduct?limit=1' })).json() as Product[];
    expect(first[0]?._id).toBe(product._id);
  });

  it('adds with only the required fields: no price, rating, description or Content, discount 0', async () => {
    const body = { image: '/images/products/x.webp', name: 'Bare', mainquantity: 0, minquantity: 1, brandname: 'B', category: 'Health & Beauty' };
    const response = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: body });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ price: null, rating: null, description: null, Content: null, image2: null, image3: null, discount: 0 });
  });

  it('takes the owner from the session, ignoring a client-sent useremail, updatedby and _id', async () => {
    const payload = validProductBody({ useremail: stranger.email, updatedby: 'mallory@example.com', _id: UNKNOWN_ID, owner_id: stranger.id });
    const response = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload });
    expect(response.statusCode).toBe(201);
    const product = response.json() as Product;
    expect(product.useremail).toBe(seller.email);
    expect(product.updatedby).toBeNull();
    expect(product._id).not.toBe(UNKNOWN_ID);
    expect(await readProductRow(env(), product._id)).toMatchObject({ ownerId: seller.id, ownerEmail: seller.email, updatedBy: null });
  });

  it('accepts a bearer token instead of the cookie', async () => {
    const response = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: { authorization: `Bearer ${seller.token}` },
      payload: validProductBody({ name: 'Via token' }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ name: 'Via token', useremail: seller.email });
  });

  it('answers 401 to an add when signed out, and writes nothing', async () => {
    const before = await env().db().$count(products);
    const response = await env().request({ method: 'POST', url: '/api/addproduct', payload: validProductBody() });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect(await env().db().$count(products)).toBe(before);
  });

  it('answers 401 to a forged session cookie', async () => {
    const response = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: { cookie: 'better-auth.session_token=forged.value' },
      payload: validProductBody(),
    });
    expect(response.statusCode).toBe(401);
  });

  // --- PUT /api/updateproduct/{id} ------------------------------------------------------------

  it('updates the owner product, sets updatedby from the session and answers 200 with it', async () => {
    const row = await seedProduct(env(), seller, { name: 'Before update', discount: 5, image2: '/images/old-2.webp', content: 'old' });
    const payload = validProductBody({
      name: 'After update',
      price: 30,
      rating: 5,
      mainquantity: 77,
      discount: undefined,
      image2: undefined,
      Content: '',
      updatedby: 'spoof@example.com',
      useremail: stranger.email,
    });
    const response = await env().request({ method: 'PUT', url: `/api/updateproduct/${row.id}`, headers: asUser(seller), payload });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      _id: row.id,
      name: 'After update',
      price: 30,
      rating: 5,
      mainquantity: 77,
      useremail: seller.email,
      updatedby: seller.email,
      // A PUT replaces the product: optional fields left out are cleared.
      discount: 0,
      image2: null,
      Content: null,
      createdAt: row.createdAt.toISOString(),
    });
    const after = await readProductRow(env(), row.id);
    expect(after).toMatchObject({ ownerId: seller.id, ownerEmail: seller.email, updatedBy: seller.email, priceCents: 3000, seq: row.seq });
    expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(row.updatedAt.getTime());
  });

  it("answers 403 to an update of someone else's product and leaves the row unchanged", async () => {
    const row = await seedProduct(env(), seller, { name: 'Not yours' });
    const before = await readProductRow(env(), row.id);
    const response = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${row.id}`,
      headers: asUser(stranger),
      payload: validProductBody({ name: 'Hijacked' }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  it('answers 401 to an update when signed out, row unchanged', async () => {
    const row = await seedProduct(env(), seller);
    const before = await readProductRow(env(), row.id);
    const response = await env().request({ method: 'PUT', url: `/api/updateproduct/${row.id}`, payload: validProductBody() });
    expect(response.statusCode).toBe(401);
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  it('answers 404 to an update of an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'nope', '42']) {
      const response = await env().request({ method: 'PUT', url: `/api/updateproduct/${id}`, headers: asUser(seller), payload: validProductBody() });
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('refuses cross-site cookie writes (no trusted Origin) with 403, row unchanged', async () => {
    const row = await seedProduct(env(), seller);
    const before = await readProductRow(env(), row.id);
    const response = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${row.id}`,
      headers: { ...asUser(seller), origin: 'https://evil.example' },
      payload: validProductBody({ name: 'CSRF' }),
    });
    expect(response.statusCode).toBe(403);
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  // --- DELETE /api/product/{id} ---------------------------------------------------------------

  it('deletes the owner product: 200 {_id, deleted: true}, then 404', async () => {
    const row = await seedProduct(env(), seller);
    const response = await env().request({ method: 'DELETE', url: `/api/product/${row.id}`, headers: asUser(seller) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ _id: row.id, deleted: true });
    expect(await readProductRow(env(), row.id)).toBeUndefined();
    expect((await env().request({ method: 'GET', url: `/api/product/${row.id}` })).statusCode).toBe(404);
    const again = await env().request({ method: 'DELETE', url: `/api/product/${row.id}`, headers: asUser(seller) });
    expect(again.statusCode).toBe(404);
  });

  it('keeps the orders of a deleted product with their snapshot', async () => {
    const row = await seedProduct(env(), seller, { name: 'Ordered then deleted' });
    const [order] = await env()
      .db()
      .insert(orders)
      .values({
        buyerId: stranger.id,
        buyerEmail: stranger.email,
        buyerName: stranger.name,
        productId: row.id,
        quantity: 20,
        unitPriceCents: 500,
        lineTotalCents: 10_000,
        totalCents: 10_000,
        listUnitPriceCents: 500,
        productName: row.name,
        productImage: row.image,
        productBrand: row.brandname,
        productCategory: row.category,
        productMinquantity: row.minquantity,
      })
      .returning();
    const response = await env().request({ method: 'DELETE', url: `/api/product/${row.id}`, headers: asUser(seller) });
    expect(response.statusCode).toBe(200);
    const [kept] = await env().db().select().from(orders).where(eq(orders.id, order!.id));
    expect(kept).toMatchObject({ productId: null, productName: 'Ordered then deleted', quantity: 20 });
  });

  it("answers 403 to deleting someone else's product, row unchanged", async () => {
    const row = await seedProduct(env(), seller);
    const before = await readProductRow(env(), row.id);
    const response = await env().request({ method: 'DELETE', url: `/api/product/${row.id}`, headers: asUser(stranger) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  it('answers 401 to a delete when signed out, row unchanged', async () => {
    const row = await seedProduct(env(), seller);
    const response = await env().request({ method: 'DELETE', url: `/api/product/${row.id}` });
    expect(response.statusCode).toBe(401);
    expect(await readProductRow(env(), row.id)).toBeDefined();
  });

  it('answers 404 to a delete of an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'zzz']) {
      const response = await env().request({ method: 'DELETE', url: `/api/product/${id}`, headers: asUser(seller) });
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('a product whose seller account is gone can be changed by nobody', async () => {
    const leaving = await signUpUser(env(), { name: 'Leaving Seller' });
    const row = await seedProduct(env(), leaving);
    await env().db().update(products).set({ ownerId: null }).where(eq(products.id, row.id));
    const response = await env().request({ method: 'DELETE', url: `/api/product/${row.id}`, headers: asUser(leaving) });
    expect(response.statusCode).toBe(403);
    expect(await readProductRow(env(), row.id)).toBeDefined();
  });
});
