import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { products } from '../../db/schema/index.ts';
import { LIMITS } from '@bulkcart/contracts';

const PRICE_MAX_DOLLARS = LIMITS.priceMax;
import { readProductRow, seedProduct, validProductBody } from '../../../test/helpers/products.ts';

/** One bad value per rule: [what, field the error is reported on, body change]. */
const BAD_INPUTS: Array<[string, string, Record<string, unknown>]> = [
  ['missing image', 'image', { image: undefined }],
  ['missing name', 'name', { name: undefined }],
  ['blank name', 'name', { name: '   ' }],
  ['missing mainquantity', 'mainquantity', { mainquantity: undefined }],
  ['missing minquantity', 'minquantity', { minquantity: undefined }],
  ['missing brandname', 'brandname', { brandname: undefined }],
  ['missing category', 'category', { category: undefined }],
  ['price 0', 'price', { price: 0 }],
  ['price -5', 'price', { price: -5 }],
  ['price 9.999 (three decimals)', 'price', { price: 9.999 }],
  ['price 0.001', 'price', { price: 0.001 }],
  ['price as text', 'price', { price: '12' }],
  ['price above 1e9', 'price', { price: 1_000_000_001 }],
  ['rating 0', 'rating', { rating: 0 }],
  ['rating 6', 'rating', { rating: 6 }],
  ['rating 4.5', 'rating', { rating: 4.5 }],
  ['mainquantity 2.5', 'mainquantity', { mainquantity: 2.5 }],
  ['mainquantity -1', 'mainquantity', { mainquantity: -1 }],
  ['mainquantity above 1e9', 'mainquantity', { mainquantity: 1_000_000_001 }],
  ['minquantity 0', 'minquantity', { minquantity: 0 }],
  ['minquantity 1.5', 'minquantity', { minquantity: 1.5 }],
  ['minquantity above 1e9', 'minquantity', { minquantity: 1_000_000_001 }],
  ['unknown category', 'category', { category: 'Toys & Games' }],
  ['category in other case', 'category', { category: 'electronics & gadgets' }],
  ['name of 121 characters', 'name', { name: 'n'.repeat(121) }],
  ['description of 501 characters', 'description', { description: 'd'.repeat(501) }],
  ['Content of 5001 characters', 'Content', { Content: 'c'.repeat(5001) }],
  ['brandname of 81 characters', 'brandname', { brandname: 'b'.repeat(81) }],
  ['discount 91', 'discount', { discount: 91 }],
  ['discount -1', 'discount', { discount: -1 }],
  ['discount 12.5', 'discount', { discount: 12.5 }],
  ['image javascript:', 'image', { image: 'javascript:alert(1)' }],
  ['image data:', 'image', { image: 'data:image/png;base64,iVBORw0KGgo=' }],
  ['image http://', 'image', { image: 'http://images.example.com/a.webp' }],
  ['image protocol-relative', 'image', { image: '//evil.example/a.webp' }],
  ['image2 javascript:', 'image2', { image2: 'javascript:alert(1)' }],
  ['image3 data:', 'image3', { image3: 'data:text/html,<script>alert(1)</script>' }],
  ['image of 2049 characters', 'image', { image: `https://a.example/${'x'.repeat(2031)}` }],
];

/** Update needs these too (docs/product/rules.md). */
const UPDATE_ONLY_REQUIRED = ['description', 'price', 'rating'] as const;

describeEachDatabase('product input validation', (env) => {
  let seller: TestUser;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Validating Seller' });
  });

  it.each(BAD_INPUTS)('add refuses %s with a 422 on that field and writes nothing', async (_what, field, change) => {
    const before = await env().db().$count(products);
    const response = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody(change) });
    expect(response.statusCode).toBe(422);
    const body = response.json() as { error: { code: string; message: string; fieldErrors: Record<string, string[]> } };
    expect(body.error.code).toBe('VALIDATION');
    expect(Object.keys(body.error.fieldErrors)).toEqual([field]);
    expect(body.error.fieldErrors[field]?.[0]).toEqual(expect.any(String));
    expect(await env().db().$count(products)).toBe(before);
  });

  it.each(BAD_INPUTS)('update refuses %s with a 422 on that field and leaves the row unchanged', async (_what, field, change) => {
    const row = await seedProduct(env(), seller);
    const before = await readProductRow(env(), row.id);
    const response = await env().request({ method: 'PUT', url: `/api/updateproduct/${row.id}`, headers: asUser(seller), payload: validProductBody(change) });
    expect(response.statusCode).toBe(422);
    expect(Object.keys((response.json() as { error: { fieldErrors: object } }).error.fieldErrors)).toEqual([field]);
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  it.each(UPDATE_ONLY_REQUIRED)('add accepts a product without %s', async (field) => {
    const response = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: asUser(seller),
      payload: validProductBody({ [field]: undefined }),
    });
    expect(response.statusCode).toBe(201);
  });

  it.each(UPDATE_ONLY_REQUIRED)('update requires %s (missing or blank), row unchanged', async (field) => {
    const row = await seedProduct(env(), seller);
    const before = await readProductRow(env(), row.id);
    for (const value of [undefined, '']) {
      const response = await env().request({
        method: 'PUT',
        url: `/api/updateproduct/${row.id}`,
        headers: asUser(seller),
        payload: validProductBody({ [field]: value }),
      });
      expect(response.statusCode).toBe(422);
      expect((response.json() as { error: { fieldErrors: Record<string, unknown> } }).error.fieldErrors).toHaveProperty(field);
    }
    expect(await readProductRow(env(), row.id)).toEqual(before);
  });

  it('accepts the boundaries: name 120, description 500, Content 5000, brand 80, quantities 1e9, discount 90, price 1, rating 1 and 5', async () => {
    const edges = validProductBody({
      name: 'n'.repeat(120),
      description: 'd'.repeat(500),
      Content: 'c'.repeat(5000),
      brandname: 'b'.repeat(80),
      mainquantity: 1_000_000_000,
      minquantity: 1_000_000_000,
      discount: 90,
      price: 1,
      rating: 1,
      image: '/images/products/edge.webp',
    });
    const added = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: edges });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ name: 'n'.repeat(120), mainquantity: 1_000_000_000, price: 1, discount: 90 });
    const id = (added.json() as { _id: string })._id;
    const updated = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${id}`,
      headers: asUser(seller),
      payload: { ...edges, mainquantity: 0, minquantity: 1, rating: 5, price: PRICE_MAX_DOLLARS, discount: 0 },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ mainquantity: 0, minquantity: 1, rating: 5, price: PRICE_MAX_DOLLARS, discount: 0 });
  });

  it('refuses a price above the contract price bound with a 422 on price, never a 500', async () => {
    const before = await env().db().$count(products);
    for (const price of [PRICE_MAX_DOLLARS + 1, 1_000_000_000]) {
      const added = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody({ price }) });
      expect(added.statusCode, String(price)).toBe(422);
      expect(added.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { price: [expect.stringContaining('1,000,000')] } } });
    }
    expect(await env().db().$count(products)).toBe(before);
    const row = await seedProduct(env(), seller);
    const rowBefore = await readProductRow(env(), row.id);
    const updated = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${row.id}`,
      headers: asUser(seller),
      payload: validProductBody({ price: PRICE_MAX_DOLLARS + 1 }),
    });
    expect(updated.statusCode).toBe(422);
    expect(await readProductRow(env(), row.id)).toEqual(rowBefore);
  });

  it('trims text fields and treats blank optional fields as absent', async () => {
    const response = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: asUser(seller),
      payload: validProductBody({ name: '  Padded name  ', description: '', price: '', rating: null, image2: '', discount: '' }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ name: 'Padded name', description: null, price: null, rating: null, image2: null, discount: 0 });
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const payload of ['[1,2]', '"text"', '42']) {
      const response = await env().request({
        method: 'POST',
        url: '/api/addproduct',
        headers: { ...asUser(seller), 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(422);
    }
    const broken = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: { ...asUser(seller), 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(broken.statusCode).toBe(400);
    const form = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: { ...asUser(seller), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=x',
    });
    expect(form.statusCode).toBe(415);
  });

  it('reports every bad field at once', async () => {
    const response = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: asUser(seller),
      payload: { image: 'javascript:alert(1)', rating: 6, price: 0, category: 'Toys' },
    });
    expect(response.statusCode).toBe(422);
    const fields = Object.keys((response.json() as { error: { fieldErrors: object } }).error.fieldErrors).sort();
    expect(fields).toEqual(['brandname', 'category', 'image', 'mainquantity', 'minquantity', 'name', 'price', 'rating']);
  });

  it('answers 401 before looking at a bad body when signed out', async () => {
    const response = await env().request({ method: 'POST', url: '/api/addproduct', payload: { rating: 6 } });
    expect(response.statusCode).toBe(401);
  });
});
