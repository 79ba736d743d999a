import { beforeAll, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { LIMITS, type Product } from '@bulkcart/contracts';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { products } from '../../db/schema/index.ts';
import { createAnswerCache } from '../../lib/answer-cache.ts';
import { READ_AFTER_COOKIE } from '../../plugins/read-routing.ts';
import { periodicJobs } from '../../background.ts';
import { processClaimant } from '../../lib/lease.ts';
import { readAllIdsNewestFirst, seedProduct, seedProducts, UNKNOWN_ID, validProductBody } from '../../../test/helpers/products.ts';

const HOME = 'Home & Kitchen Appliances';

function ids(list: Product[]): string[] {
  return list.map((p) => p._id);
}

/**
 * Public catalog reads that arrive together share one query and one serialised answer, kept for
 * CATALOG_CACHE_MS unless this process writes (docs/decisions/028-catalog-answer-cache.md), and carry an
 * ETag and compression (docs/benchmarks.md). A client must never be able to tell: every answer is
 * its own request's, and reflects every write this process has answered.
 */
describeEachDatabase('public catalog reads under concurrency, ETag and compression', (env) => {
  let seller: TestUser;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Shared Seller' });
    await seedProducts(
      env(),
      seller,
      Array.from({ length: 60 }, (_, i) => ({ name: `Shared item ${i}`, rating: (i % 5) + 1, minquantity: i % 3 === 0 ? 150 : 10 })),
    );
  });

  it('answers many different reads sent at once, each with its own right answer', async () => {
    const all = await readAllIdsNewestFirst(env());
    const homeRows = await env()
      .db()
      .select({ id: products.id })
      .from(products)
      .where(eq(products.category, HOME))
      .orderBy(sql`${products.seq} DESC`)
      .limit(4);
    const asked = [
      ...Array.from({ length: 6 }, () => ({ url: '/api/allproduct?limit=5', expect: { status: 200, ids: all.slice(0, 5) } })),
      ...Array.from({ length: 4 }, () => ({
        url: `/api/allproduct?limit=4&category=${encodeURIComponent(HOME)}`,
        expect: { status: 200, ids: homeRows.map((r) => r.id) },
      })),
      ...all.slice(0, 12).map((id) => ({ url: `/api/product/${id}`, expect: { status: 200, ids: [id] } })),
      ...all.slice(0, 3).map((id) => ({ url: `/api/product/${id.toUpperCase()}`, expect: { status: 200, ids: [id] } })),
      { url: `/api/product/${UNKNOWN_ID}`, expect: { status: 404, ids: [] } },
      { url: '/api/product/not-a-uuid', expect: { status: 404, ids: [] } },
      { url: '/api/allproduct?cursor=!!!', expect: { status: 422, ids: [] } },
      { url: '/api/allproduct?limit=500', expect: { status: 422, ids: [] } },
    ];
    const answers = await Promise.all(asked.map((a) => env().request({ method: 'GET', url: a.url })));
    answers.forEach((response, i) => {
      const { url, expect: wanted } = asked[i] as (typeof asked)[number];
      expect(response.statusCode, url).toBe(wanted.status);
      if (wanted.status !== 200) {
        expect(response.json(), url).toMatchObject({ error: { code: expect.any(String) } });
        return;
      }
      const body = response.json() as Product[] | Product;
      expect(Array.isArray(body) ? ids(body) : [body._id], url).toEqual(wanted.ids);
    });
    // Requests for the same page also get the same next link.
    const links = answers.slice(0, 6).map((r) => r.headers.link);
    expect(new Set(links).size).toBe(1);
    expect(links[0]).toMatch(/^<\/api\/allproduct\?limit=5&cursor=[\w-]+>; rel="next"$/);
  });

  it('answers the same page asked in two spellings each with its own next link', async () => {
    const [withFalse, without] = await Promise.all([
      env().request({ method: 'GET', url: '/api/allproduct?limit=3&available=false' }),
      env().request({ method: 'GET', url: '/api/allproduct?limit=3' }),
    ]);
    expect(ids(withFalse?.json())).toEqual(ids(without?.json()));
    expect(withFalse?.headers.link).toContain('available=false');
    expect(without?.headers.link).not.toContain('available');
  });

  it('shows a change made by another process once CATALOG_CACHE_MS has passed, at once to a browser that wrote, and after a background job', async () => {
    const bound = env().config.catalogCacheMs;
    expect(bound).toBeGreaterThan(0);
    let now = 0;
    const kept = env().ctx.catalogAnswers;
    env().ctx.catalogAnswers = createAnswerCache({ ttlMs: bound, now: () => now });
    try {
      const row = await seedProduct(env(), seller, { rating: 5, name: 'Just listed, five stars', mainquantity: 900 });
      const stock = async (headers: Record<string, string> = {}) =>
        ((await env().request({ method: 'GET', url: `/api/product/${row.id}`, headers })).json() as Product).mainquantity;
      const topIds = async () => ids((await env().request({ method: 'GET', url: '/api/topproduct' })).json() as Product[]);
      expect(await stock()).toBe(900);
      expect((await topIds())[0]).toBe(row.id);

      // Another server process changes them; this one is not told.
      await env().db().update(products).set({ mainquantity: 7 }).where(eq(products.id, row.id));
      await env().db().update(products).set({ rating: 1 }).where(eq(products.id, row.id));
      now = bound - 1;
      expect(await stock()).toBe(900);
      expect((await topIds())[0]).toBe(row.id);
      // A browser that wrote through another process carries the read-after cookie.
      expect(await stock({ cookie: `${READ_AFTER_COOKIE}=0/1.signature` })).toBe(7);
      now = bound;
      expect(await stock()).toBe(7);
      expect((await topIds())[0]).not.toBe(row.id);

      // A background job may have written (a sweep returns stock): after its run, nothing kept is answered.
      await env().db().update(products).set({ mainquantity: 8 }).where(eq(products.id, row.id));
      expect(await stock()).toBe(7);
      const job = periodicJobs(env().ctx, env().ctx.mailbox, processClaimant(env().config.jobLeaseMs)).find((j) => j.name === 'sent email pruning');
      await job?.run();
      expect(await stock()).toBe(8);
    } finally {
      env().ctx.catalogAnswers = kept;
    }
  });

  it('shows a change made through the API to reads sent right after it', async () => {
    const row = await seedProduct(env(), seller, { name: 'Before the edit' });
    await env().request({ method: 'GET', url: `/api/product/${row.id}` });
    const update = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${row.id}`,
      headers: asUser(seller),
      payload: validProductBody({ name: 'After the edit' }),
    });
    expect(update.statusCode).toBe(200);
    const reads = await Promise.all(Array.from({ length: 5 }, () => env().request({ method: 'GET', url: `/api/product/${row.id}` })));
    for (const read of reads) expect((read.json() as Product).name).toBe('After the edit');
  });

  it('sends an ETag, answers 304 without a body when it still matches, and 200 once the data changed', async () => {
    const url = '/api/allproduct?limit=10';
    const first = await env().request({ method: 'GET', url });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');

    for (const header of [etag, etag.slice(2), `"nope", ${etag}`, '*']) {
      const again = await env().request({ method: 'GET', url, headers: { 'if-none-match': header } });
      expect(again.statusCode, header).toBe(304);
      expect(again.body, header).toBe('');
      expect(again.headers.etag).toBe(etag);
    }
    const other = await env().request({ method: 'GET', url, headers: { 'if-none-match': 'W/"something-else"' } });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual(first.json());

    const newest = (first.json() as Product[])[0] as Product;
    const renamed = await env().request({
      method: 'PUT',
      url: `/api/updateproduct/${newest._id}`,
      headers: asUser(seller),
      payload: validProductBody({ name: 'Renamed through the API' }),
    });
    expect(renamed.statusCode).toBe(200);
    const changed = await env().request({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.json() as Product[])[0]?.name).toBe('Renamed through the API');
  });

  it('compresses a large answer as the client asks and keeps the bytes of the plain one', async () => {
    const url = `/api/allproduct?limit=${LIMITS.pageDefault}`;
    const plain = await env().request({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.headers.vary).toBe('accept-encoding');

    const br = await env().request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(Number(br.headers['content-length'])).toBeLessThan(plain.rawPayload.length);

    const gzip = await env().request({ method: 'GET', url, headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);

    const refused = await env().request({ method: 'GET', url, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.rawPayload.equals(plain.rawPayload)).toBe(true);
  });

  it('leaves a small answer uncompressed', async () => {
    const [row] = await readAllIdsNewestFirst(env());
    const response = await env().request({ method: 'GET', url: `/api/product/${row}`, headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.length).toBeLessThan(1024);
  });

  it("keeps a seller's own list, which is personal, out of every cache", async () => {
    const response = await env().request({ method: 'GET', url: `/api/products/${seller.email}`, headers: asUser(seller) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.etag).toBeUndefined();
  });
});
