import { beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { CATEGORIES, LIMITS, type Product } from '@bulkcart/contracts';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { products } from '../../db/schema/index.ts';
import { encodeCursor } from '../../lib/pagination.ts';
import { readAllIdsNewestFirst, readAllPages, seedProduct, seedProducts, UNKNOWN_ID } from '../../../test/helpers/products.ts';

const ELECTRONICS = 'Electronics & Gadgets';
const OFFICE = 'Office Supplies & Stationery';

function ids(list: Product[]): string[] {
  return list.map((p) => p._id);
}

describeEachDatabase('catalog reads', (env) => {
  let seller: TestUser;
  let buyer: TestUser;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Catalog Seller' });
    buyer = await signUpUser(env(), { name: 'Catalog Buyer' });
    // 40 products over all six categories, MOQs on both sides of the 'available' line (> 100).
    await seedProducts(
      env(),
      seller,
      Array.from({ length: 40 }, (_, i) => ({
        name: `Catalog item ${i}`,
        category: CATEGORIES[i % CATEGORIES.length],
        minquantity: [1, 100, 101, 250][i % 4],
        rating: (i % 5) + 1,
      })),
    );
  });

  it('GET /api/product/{id} answers one product in the spec field names, without sign-in', async () => {
    const row = await seedProduct(env(), seller, {
      name: 'Detail Drill',
      image: '/images/products/drill.webp',
      image2: 'https://cdn.example.com/drill-2.webp',
      image3: null,
      brandname: 'ForgeWorks',
      category: 'Industrial Machinery & Tools',
      description: 'Cordless drill',
      content: 'Two batteries included.',
      priceCents: 4_500,
      rating: 5,
      discount: 15,
      mainquantity: 300,
      minquantity: 12,
    });
    const response = await env().request({ method: 'GET', url: `/api/product/${row.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      _id: row.id,
      image: '/images/products/drill.webp',
      image2: 'https://cdn.example.com/drill-2.webp',
      image3: null,
      name: 'Detail Drill',
      mainquantity: 300,
      minquantity: 12,
      brandname: 'ForgeWorks',
      category: 'Industrial Machinery & Tools',
      description: 'Cordless drill',
      price: 45,
      rating: 5,
      Content: 'Two batteries included.',
      useremail: seller.email,
      updatedby: null,
      discount: 15,
      createdAt: row.createdAt.toISOString(),
      casepack: 1,
      tiers: [],
      sku: null,
      unlisted: false,
    });
  });

  it('answers a product with no price and no rating as nulls', async () => {
    const row = await seedProduct(env(), seller, { priceCents: null, rating: null, description: null, content: null });
    const response = await env().request({ method: 'GET', url: `/api/product/${row.id}`, headers: asUser(buyer) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ price: null, rating: null, description: null, Content: null });
  });

  it('answers 404 with the JSON error body for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'not-a-uuid', '123', "1' OR '1'='1", '00000000-0000-0000-0000-00000000000g']) {
      const response = await env().request({ method: 'GET', url: `/api/product/${encodeURIComponent(id)}` });
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND', title: expect.any(String), message: expect.any(String) } });
    }
  });

  it('GET /api/topproduct gives the 8 best rated, newest first among equals, without sign-in', async () => {
    const response = await env().request({ method: 'GET', url: '/api/topproduct' });
    expect(response.statusCode).toBe(200);
    const top = response.json() as Product[];
    expect(top).toHaveLength(LIMITS.featuredCount);

    // Ranked here from every row, not by the server's ORDER BY: best rating first (unrated last), then newest.
    const all = await env().db().select({ id: products.id, rating: products.rating, seq: products.seq }).from(products);
    const expected = [...all].sort((a, b) => (b.rating ?? -1) - (a.rating ?? -1) || Number(b.seq) - Number(a.seq)).slice(0, LIMITS.featuredCount);
    expect(ids(top)).toEqual(expected.map((r) => r.id));
    expect(top.every((p) => p.rating === 5)).toBe(true);
  });

  it('puts a new 5-star product first in topproduct and never ranks unrated ones above rated', async () => {
    const fresh = await seedProduct(env(), seller, { rating: 5, name: 'Newest five star' });
    await seedProduct(env(), seller, { rating: null, name: 'Unrated newest' });
    const top = (await env().request({ method: 'GET', url: '/api/topproduct' })).json() as Product[];
    expect(top[0]?._id).toBe(fresh.id);
    expect(top.some((p) => p.rating === null)).toBe(false);
  });

  it('GET /api/allproduct answers the first page newest first, 48 by default, with a next link', async () => {
    await seedProducts(
      env(),
      seller,
      Array.from({ length: 20 }, () => ({})),
    );
    const all = await readAllIdsNewestFirst(env());
    expect(all.length).toBeGreaterThan(LIMITS.pageDefault);

    const response = await env().request({ method: 'GET', url: '/api/allproduct' });
    expect(response.statusCode).toBe(200);
    const page = response.json() as Product[];
    expect(ids(page)).toEqual(all.slice(0, LIMITS.pageDefault));
    const lastSeq = (
      await env()
        .db()
        .select({ seq: products.seq })
        .from(products)
        .where(eq(products.id, all[LIMITS.pageDefault - 1] ?? ''))
    )[0]?.seq;
    expect(response.headers.link).toBe(`</api/allproduct?limit=48&cursor=${encodeCursor(lastSeq ?? 0)}>; rel="next"`);
  });

  it('works for anonymous and signed-in readers alike', async () => {
    const anonymous = await env().request({ method: 'GET', url: '/api/allproduct?limit=5' });
    const signedIn = await env().request({ method: 'GET', url: '/api/allproduct?limit=5', headers: asUser(buyer) });
    expect(anonymous.statusCode).toBe(200);
    expect(signedIn.json()).toEqual(anonymous.json());
  });

  it('pages through the whole catalog with limit=7: no product twice, none missing, stable order', async () => {
    const all = await readAllIdsNewestFirst(env());
    const { pages, links } = await readAllPages(env(), '/api/allproduct?limit=7');
    expect(pages.length).toBe(Math.ceil(all.length / 7));
    for (const page of pages.slice(0, -1)) expect(page).toHaveLength(7);
    expect(pages.flat().map((p) => p._id)).toEqual(all);
    expect(links.every((l) => l.startsWith('</api/allproduct?limit=7&cursor='))).toBe(true);

    // Reading again gives the very same pages.
    const again = await readAllPages(env(), '/api/allproduct?limit=7');
    expect(again.pages.map(ids)).toEqual(pages.map(ids));
  });

  it('keeps paging right when products are added and deleted between pages', async () => {
    const before = await readAllIdsNewestFirst(env());
    const first = await env().request({ method: 'GET', url: '/api/allproduct?limit=10' });
    const firstPage = first.json() as Product[];
    const next = /<([^>]+)>/.exec(String(first.headers.link))?.[1] ?? '';

    // A new product lands on top (not in later pages); one of the next page's products is deleted.
    await seedProduct(env(), seller, { name: 'Added while paging' });
    const deletedId = before[12] ?? '';
    await env().db().delete(products).where(eq(products.id, deletedId));

    const rest = await readAllPages(env(), next);
    const seen = [...ids(firstPage), ...rest.pages.flat().map((p) => p._id)];
    expect(seen).toEqual(before.filter((id) => id !== deletedId));
  });

  it('filters by category on the server, across pages', async () => {
    const rows = await env()
      .db()
      .select({ id: products.id })
      .from(products)
      .where(eq(products.category, ELECTRONICS))
      .orderBy(sql`${products.seq} DESC`);
    // More than one page of the category, or neither the filter nor its next link is shown to hold.
    expect(rows.length).toBeGreaterThan(3);
    const url = `/api/allproduct?limit=3&category=${encodeURIComponent(ELECTRONICS)}`;
    const { pages, links } = await readAllPages(env(), url);
    const got = pages.flat();
    expect(ids(got)).toEqual(rows.map((r) => r.id));
    expect(pages.length).toBe(Math.ceil(rows.length / 3));
    expect(got.every((p) => p.category === ELECTRONICS)).toBe(true);
    // The next link keeps the filter.
    for (const link of links) expect(new URL(/<([^>]+)>/.exec(link)?.[1] ?? '', 'http://x').searchParams.get('category')).toBe(ELECTRONICS);
  });

  it('available=true keeps only products with minquantity above 100', async () => {
    const { pages, links } = await readAllPages(env(), '/api/allproduct?limit=6&available=true');
    const got = pages.flat();
    const rows = await env()
      .db()
      .select({ id: products.id })
      .from(products)
      .where(sql`${products.minquantity} > 100`)
      .orderBy(sql`${products.seq} DESC`);
    expect(ids(got)).toEqual(rows.map((r) => r.id));
    expect(got.length).toBeGreaterThan(6);
    expect(got.every((p) => p.minquantity > 100)).toBe(true);
    expect(links.every((l) => l.includes('available=true'))).toBe(true);
  });

  it('combines the category and available filters', async () => {
    const { pages } = await readAllPages(env(), `/api/allproduct?limit=2&available=true&category=${encodeURIComponent(OFFICE)}`);
    const got = pages.flat();
    const rows = await env()
      .db()
      .select({ id: products.id })
      .from(products)
      .where(sql`${products.minquantity} > 100 AND ${products.category} = ${OFFICE}`)
      .orderBy(sql`${products.seq} DESC`);
    expect(rows.length).toBeGreaterThan(0);
    expect(ids(got)).toEqual(rows.map((r) => r.id));
  });

  it('available=false is the whole catalog', async () => {
    const plain = await env().request({ method: 'GET', url: '/api/allproduct?limit=30' });
    const withFalse = await env().request({ method: 'GET', url: '/api/allproduct?limit=30&available=false' });
    expect(ids(withFalse.json())).toEqual(ids(plain.json()));
  });

  it('answers no Link header on the last page and an empty array past the end', async () => {
    const total = (await readAllIdsNewestFirst(env())).length;
    const response = await env().request({ method: 'GET', url: `/api/allproduct?limit=${LIMITS.pageMax}` });
    expect(response.statusCode).toBe(200);
    expect((response.json() as Product[]).length).toBe(Math.min(total, LIMITS.pageMax));
    expect(response.headers.link).toBeUndefined();

    const past = await env().request({ method: 'GET', url: `/api/allproduct?cursor=${encodeCursor(1)}` });
    expect(past.statusCode).toBe(200);
    expect(past.json()).toEqual([]);
  });

  it('refuses out-of-range or malformed limits with a 422 field error', async () => {
    for (const limit of ['201', '0', '-1', '2.5', 'abc', '1e9']) {
      const response = await env().request({ method: 'GET', url: `/api/allproduct?limit=${limit}` });
      expect(response.statusCode, limit).toBe(422);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { limit: expect.any(Array) } } });
    }
  });

  it('refuses an unknown category and a bad available value with a 422', async () => {
    for (const query of ['category=Toys', 'category=electronics%20%26%20gadgets', 'available=yes']) {
      const response = await env().request({ method: 'GET', url: `/api/allproduct?${query}` });
      expect(response.statusCode, query).toBe(422);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION' } });
    }
  });

  it('refuses a cursor it did not issue with a 422, never a 500', async () => {
    const bad = [
      '!!!',
      'abc',
      encodeCursor(0),
      Buffer.from('-5').toString('base64url'),
      Buffer.from('12abc').toString('base64url'),
      Buffer.from('99999999999999999999').toString('base64url'),
      'x'.repeat(300),
      `${encodeCursor(12)}=`,
    ];
    for (const cursor of bad) {
      const response = await env().request({ method: 'GET', url: `/api/allproduct?cursor=${encodeURIComponent(cursor)}` });
      expect(response.statusCode, cursor).toBe(422);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { cursor: expect.any(Array) } } });
    }
  });

  it('refuses repeated query parameters instead of guessing', async () => {
    const response = await env().request({ method: 'GET', url: '/api/allproduct?limit=5&limit=6' });
    expect(response.statusCode).toBe(422);
  });
});

describeEachDatabase("a seller's own products", (env) => {
  let seller: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Own Seller' });
    other = await signUpUser(env(), { name: 'Other Seller' });
    await seedProducts(
      env(),
      seller,
      Array.from({ length: 17 }, (_, i) => ({ name: `Mine ${i}`, minquantity: i % 2 ? 150 : 5 })),
    );
    await seedProducts(
      env(),
      other,
      Array.from({ length: 9 }, (_, i) => ({ name: `Theirs ${i}` })),
    );
  });

  it('lists only my products, newest first, paged with limit=7', async () => {
    const mine = await env()
      .db()
      .select({ id: products.id })
      .from(products)
      .where(eq(products.ownerId, seller.id))
      .orderBy(sql`${products.seq} DESC`);
    const { pages, links } = await readAllPages(env(), `/api/products/${encodeURIComponent(seller.email)}?limit=7`, asUser(seller));
    expect(pages.map((p) => p.length)).toEqual([7, 7, 3]);
    expect(pages.flat().map((p) => p._id)).toEqual(mine.map((r) => r.id));
    expect(pages.flat().every((p) => p.useremail === seller.email)).toBe(true);
    expect(links[0]).toMatch(new RegExp(`^</api/products/${encodeURIComponent(seller.email).replace(/[.]/g, '\\.')}\\?limit=7&cursor=`));
  });

  it('answers 48 by default, and an empty array for a seller with none', async () => {
    const response = await env().request({ method: 'GET', url: `/api/products/${seller.email}`, headers: asUser(seller) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(17);
    expect(response.headers.link).toBeUndefined();

    const newcomer = await signUpUser(env());
    const none = await env().request({ method: 'GET', url: `/api/products/${newcomer.email}`, headers: asUser(newcomer) });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it('compares the email case-insensitively', async () => {
    const response = await env().request({ method: 'GET', url: `/api/products/${seller.email.toUpperCase()}`, headers: asUser(seller) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(17);
  });

  it('accepts the bearer token as well as the cookie', async () => {
    const response = await env().request({ method: 'GET', url: `/api/products/${seller.email}`, headers: { authorization: `Bearer ${seller.token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(17);
  });

  it('applies the available filter to my list', async () => {
    const response = await env().request({ method: 'GET', url: `/api/products/${seller.email}?available=true`, headers: asUser(seller) });
    const got = response.json() as Product[];
    expect(got).toHaveLength(8);
    expect(got.every((p) => p.minquantity > 100 && p.useremail === seller.email)).toBe(true);
  });

  it("answers 403 for someone else's email", async () => {
    const response = await env().request({ method: 'GET', url: `/api/products/${other.email}`, headers: asUser(seller) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('answers 401 when signed out', async () => {
    const response = await env().request({ method: 'GET', url: `/api/products/${seller.email}` });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });

  it('refuses a limit above 200 and a bad cursor with 422', async () => {
    const tooMany = await env().request({ method: 'GET', url: `/api/products/${seller.email}?limit=201`, headers: asUser(seller) });
    expect(tooMany.statusCode).toBe(422);
    const badCursor = await env().request({ method: 'GET', url: `/api/products/${seller.email}?cursor=zz`, headers: asUser(seller) });
    expect(badCursor.statusCode).toBe(422);
  });
});
