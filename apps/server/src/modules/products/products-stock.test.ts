import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { readProductRow, seedProduct, UNKNOWN_ID } from '../../../test/helpers/products.ts';

describeEachDatabase('stock adjustment (PATCH /api/products/{id})', (env) => {
  let seller: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Stock Seller' });
    stranger = await signUpUser(env(), { name: 'Stock Stranger' });
  });

  const patch = (id: string, body: unknown, user?: TestUser) =>
    env().request({ method: 'PATCH', url: `/api/products/${id}`, headers: user ? asUser(user) : {}, payload: body as object });

  it('adds and removes stock for the owner and answers 200 with the product', async () => {
    const row = await seedProduct(env(), seller, { mainquantity: 100 });
    const up = await patch(row.id, { quantity: 25 }, seller);
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ _id: row.id, mainquantity: 125, updatedby: seller.email });
    const down = await patch(row.id, { quantity: -125 }, seller);
    expect(down.statusCode).toBe(200);
    expect(down.json()).toMatchObject({ mainquantity: 0 });
    expect((await readProductRow(env(), row.id))?.mainquantity).toBe(0);
  });

  it('never goes below 0: 409 with a clear message, row unchanged', async () => {
    const row = await seedProduct(env(), seller, { mainquantity: 30 });
    const before = await readProductRow(env(), row.id);
    const response = await patch(row.id, { quantity: -31 }, seller);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: { code: 'CONFLICT', message: expect.stringContaining('only 30 units') } });
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  it('never goes above 1,000,000,000: 409, row unchanged', async () => {
    const row = await seedProduct(env(), seller, { mainquantity: 999_999_990 });
    const before = await readProductRow(env(), row.id);
    const response = await patch(row.id, { quantity: 11 }, seller);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: { code: 'CONFLICT', message: expect.stringContaining('1,000,000,000') } });
    expect(await readProductRow(env(), row.id)).toEqual(before);
    expect((await patch(row.id, { quantity: 10 }, seller)).json()).toMatchObject({ mainquantity: 1_000_000_000 });
  });

  it('adds the largest allowed step to a full stock without overflowing', async () => {
    const row = await seedProduct(env(), seller, { mainquantity: 1_000_000_000 });
    const response = await patch(row.id, { quantity: 1_000_000_000 }, seller);
    expect(response.statusCode).toBe(409);
    expect((await readProductRow(env(), row.id))?.mainquantity).toBe(1_000_000_000);
  });

  it.each([
    ['0', { quantity: 0 }],
    ['a fraction', { quantity: 1.5 }],
    ['text', { quantity: '5' }],
    ['nothing', {}],
    ['above 1e9', { quantity: 1_000_000_001 }],
    ['below -1e9', { quantity: -1_000_000_001 }],
  ])('refuses a quantity of %s with a 422, row unchanged', async (_what, body) => {
    const row = await seedProduct(env(), seller, { mainquantity: 50 });
    const before = await readProductRow(env(), row.id);
    const response = await patch(row.id, body, seller);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { quantity: expect.any(Array) } } });
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  it("answers 403 to adjusting someone else's stock, row unchanged", async () => {
    const row = await seedProduct(env(), seller, { mainquantity: 50 });
    const before = await readProductRow(env(), row.id);
    const response = await patch(row.id, { quantity: -10 }, stranger);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  it('answers 401 when signed out, row unchanged', async () => {
    const row = await seedProduct(env(), seller, { mainquantity: 50 });
    const before = await readProductRow(env(), row.id);
    const response = await patch(row.id, { quantity: -10 });
    expect(response.statusCode).toBe(401);
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
      const response = await patch(id, { quantity: 1 }, seller);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });
});

/**
 * Adjustments racing each other, on PostgreSQL only: PGlite runs one transaction at a time, so there a
 * read-then-write adjustment (a lost update) passes these tests; on PostgreSQL the requests overlap on
 * the pool and it does not.
 */
describe('stock adjustment under concurrency [postgres]', () => {
  let env: TestEnv;
  let seller: TestUser;

  beforeAll(async () => {
    env = await createTestEnv('postgres');
    seller = await signUpUser(env, { name: 'Racing Stock Seller' });
  });
  afterAll(async () => {
    await env?.close();
  });

  const patch = (id: string, body: unknown, user: TestUser) =>
    env.request({ method: 'PATCH', url: `/api/products/${id}`, headers: asUser(user), payload: body as object });

  it('keeps the sum right under concurrent adjustments: 50 × -1 on a stock of 30', async () => {
    const row = await seedProduct(env, seller, { mainquantity: 30 });
    const responses = await Promise.all(Array.from({ length: 50 }, () => patch(row.id, { quantity: -1 }, seller)));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20);
    expect((await readProductRow(env, row.id))?.mainquantity).toBe(0);
  });

  it('keeps the sum right when additions and removals race', async () => {
    const row = await seedProduct(env, seller, { mainquantity: 10 });
    const deltas = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 3 : -2));
    const responses = await Promise.all(deltas.map((quantity) => patch(row.id, { quantity }, seller)));
    const applied = deltas.filter((_, i) => responses[i]?.statusCode === 200).reduce((sum, d) => sum + d, 0);
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    const after = (await readProductRow(env, row.id))?.mainquantity;
    expect(after).toBe(10 + applied);
    expect(after).toBeGreaterThanOrEqual(0);
  });
});
