import { applyDiscount, toCents } from '@bulkcart/contracts/money';
import { beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { CATEGORIES, type Category, type SearchResult, type SuggestResult } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { signUpUser } from '../../../test/helpers/accounts.ts';
import { queryRows } from '../../db/rows.ts';
import { seedProducts } from '../../../test/helpers/products.ts';
import type { ProductRow } from '../../db/schema/index.ts';

const NAMES = [
  'Nitrile Gloves Box',
  'Latex Gloves',
  'Heavy Duty Stapler',
  'A4 Copy Paper Ream',
  'Crème Brûlée Torch',
  'Cordless Drill',
  'Office Chair',
  'LED Desk Lamp',
];
const BRANDS = ['ForgeWorks', 'PaperCo', 'SafeHands', 'Lumen', 'HomeChef'];

/** 60 products spread over names, brands, categories, prices (some none), MOQs, stock and ratings. */
function catalog(): Array<Partial<ProductRow>> {
  return Array.from({ length: 60 }, (_, i) => ({
    name: `${NAMES[i % NAMES.length]} ${i}`,
    brandname: BRANDS[i % BRANDS.length],
    category: CATEGORIES[i % CATEGORIES.length] as Category,
    description: i % 7 === 0 ? 'Goes well with paper and gloves.' : `Lot ${i}, boxed for resale.`,
    priceCents: i % 9 === 0 ? null : 100 * (1 + ((i * 13) % 40)),
    // Some sellers discount: the card shows, and search filters and sorts by, the discounted price.
    discount: [0, 15, 0, 33][i % 4],
    minquantity: [1, 10, 50, 150][i % 4],
    mainquantity: i % 5 === 0 ? 5 : 1_000,
    rating: i % 11 === 0 ? null : 1 + (i % 5),
  }));
}

/** The unit price a card shows for a product row or answer (PriceTag: the list price with the discount). */
const shownCents = (r: Pick<ProductRow, 'priceCents' | 'discount'>): number | null => (r.priceCents === null ? null : applyDiscount(r.priceCents, r.discount));
const shownOf = (p: SearchResult['items'][number]): number | null => (p.price === null ? null : applyDiscount(toCents(p.price), p.discount));

async function search(env: TestEnv, query: string): Promise<SearchResult> {
  const response = await env.request({ method: 'GET', url: `/api/search?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every page of a search, following nextCursor as a client does. */
async function searchAll(env: TestEnv, query: string, limit = 7): Promise<SearchResult['items']> {
  const items: SearchResult['items'] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages += 1) {
    const page = await search(env, `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return items;
  }
  throw new Error('paging never ended');
}

const names = (items: SearchResult['items']) => items.map((p) => p.name);

describeEachDatabase('search', (env) => {
  let rows: ProductRow[];

  beforeAll(async () => {
    const seller = await signUpUser(env(), { name: 'Search Seller' });
    rows = await seedProducts(env(), seller, catalog());
  });

  it('finds a product by a word of its name, any word order, across name, brand and category', async () => {
    const nitrile = names(await searchAll(env(), 'q=gloves nitrile'));
    expect(nitrile.sort()).toEqual(
      rows
        .filter((r) => r.name.startsWith('Nitrile Gloves Box'))
        .map((r) => r.name)
        .sort(),
    );
    const byBrand = await searchAll(env(), 'q=forgeworks drill');
    expect(byBrand.length).toBeGreaterThan(0);
    expect(byBrand.every((p) => p.brandname === 'ForgeWorks' && p.name.startsWith('Cordless Drill'))).toBe(true);
    const byCategory = await searchAll(env(), 'q=stationery');
    expect(byCategory.length).toBe(rows.filter((r) => r.category === 'Office Supplies & Stationery').length);
  });

  it('matches prefixes and small typos, ignoring case and accents', async () => {
    for (const q of ['stap', 'STAPLER', 'stapelr', 'staplr']) {
      const found = await search(env(), `q=${encodeURIComponent(q)}`);
      expect(found.total, q).toBe(rows.filter((r) => r.name.startsWith('Heavy Duty Stapler')).length);
    }
    const gloves = await searchAll(env(), 'q=glovs');
    expect(gloves.filter((p) => p.name.includes('Gloves')).length).toBe(rows.filter((r) => r.name.includes('Gloves')).length);
    expect((await search(env(), 'q=glovs')).terms).toContain('gloves');
    for (const q of ['creme brulee', 'CRÈME BRÛLÉE', 'brûlée']) {
      expect((await search(env(), `q=${encodeURIComponent(q)}`)).total, q).toBe(rows.filter((r) => r.name.startsWith('Crème')).length);
    }
  });

  it('ranks name matches first', async () => {
    // 'paper' is in the paper products' names, the PaperCo brand (a prefix) and every seventh description.
    const items = await searchAll(env(), 'q=paper');
    const firstNonName = items.findIndex((p) => !p.name.toLowerCase().includes('paper'));
    expect(firstNonName).toBeGreaterThan(0);
    expect(items.slice(firstNonName).every((p) => !p.name.toLowerCase().includes('paper'))).toBe(true);
    expect(items.length).toBe(rows.filter((r) => r.name.includes('Paper') || r.brandname === 'PaperCo' || r.description?.includes('paper')).length);
  });

  const filters: Array<[string, (r: ProductRow) => boolean]> = [
    ['category=Health%20%26%20Beauty', (r) => r.category === 'Health & Beauty'],
    ['category=Health%20%26%20Beauty&category=Fashion%20%26%20Apparel', (r) => r.category === 'Health & Beauty' || r.category === 'Fashion & Apparel'],
    ['brand=Lumen', (r) => r.brandname === 'Lumen'],
    ['brand=Lumen&brand=PaperCo', (r) => r.brandname === 'Lumen' || r.brandname === 'PaperCo'],
    ['minPrice=20', (r) => shownCents(r) !== null && shownCents(r)! >= 2000],
    ['maxPrice=10.5', (r) => shownCents(r) !== null && shownCents(r)! <= 1050],
    ['maxMoq=10', (r) => r.minquantity <= 10],
    ['inStock=true', (r) => r.mainquantity >= r.minquantity],
    [
      'q=gloves&category=Electronics%20%26%20Gadgets&category=Health%20%26%20Beauty&brand=SafeHands&brand=ForgeWorks&minPrice=5&maxPrice=35&maxMoq=50&inStock=true',
      (r) =>
        (r.name.includes('Gloves') || (r.description ?? '').includes('gloves')) &&
        ['Electronics & Gadgets', 'Health & Beauty'].includes(r.category) &&
        ['SafeHands', 'ForgeWorks'].includes(r.brandname) &&
        shownCents(r) !== null &&
        shownCents(r)! >= 500 &&
        shownCents(r)! <= 3500 &&
        r.minquantity <= 50 &&
        r.mainquantity >= r.minquantity,
    ],
  ];
  for (const [query, keep] of filters) {
    it(`filters: ${decodeURIComponent(query)}`, async () => {
      const items = await searchAll(env(), query);
      const expected = rows
        .filter(keep)
        .map((r) => r.id)
        .sort();
      expect(expected.length).toBeGreaterThan(0);
      expect(items.map((p) => p._id).sort()).toEqual(expected);
      expect((await search(env(), query)).total).toBe(expected.length);
    });
  }

  const sorts: Array<[string, (a: SearchResult['items'][number], b: SearchResult['items'][number]) => boolean]> = [
    ['price_asc', (a, b) => shownOf(b) === null || (shownOf(a) !== null && shownOf(a)! <= shownOf(b)!)],
    ['price_desc', (a, b) => shownOf(b) === null || (shownOf(a) !== null && shownOf(a)! >= shownOf(b)!)],
    ['rating', (a, b) => b.rating === null || (a.rating !== null && a.rating >= b.rating)],
    ['newest', (a, b) => a.createdAt >= b.createdAt],
  ];
  for (const [sort, inOrder] of sorts) {
    it(`sort=${sort} sorts every page, with no item twice or missing`, async () => {
      for (const query of [`sort=${sort}`, `sort=${sort}&q=gloves`]) {
        const items = await searchAll(env(), query, 4);
        // Several pages, or the order checks below check nothing.
        expect(items.length, query).toBeGreaterThan(8);
        for (let i = 1; i < items.length; i += 1) expect(inOrder(items[i - 1]!, items[i]!), `${query} at ${i}`).toBe(true);
        expect(new Set(items.map((p) => p._id)).size).toBe(items.length);
        expect(items.length).toBe((await search(env(), query)).total);
      }
      // createdAt can tie within one insert; newest is by insertion order, which `seq` records.
      if (sort === 'newest') expect((await searchAll(env(), 'sort=newest', 9)).map((p) => p._id)).toEqual(rows.map((r) => r.id).reverse());
    });
  }

  it('relevance pages hold every match once', async () => {
    const all = await searchAll(env(), 'q=gloves paper', 50);
    const paged = await searchAll(env(), 'q=gloves paper', 2);
    expect(paged.map((p) => p._id)).toEqual(all.map((p) => p._id));
  });

  it('facet counts equal what the facet filter then returns', async () => {
    for (const base of ['q=gloves', 'inStock=true&maxMoq=50', 'q=paper&brand=PaperCo']) {
      const { facets } = await search(env(), base);
      expect(facets.categories.length).toBeGreaterThan(0);
      for (const facet of facets.categories) {
        const narrowed = await search(env(), `${base.replace(/&?category=[^&]*/g, '')}&category=${encodeURIComponent(facet.value)}`);
        expect(narrowed.total, `${base} category ${facet.value}`).toBe(facet.count);
      }
      for (const facet of facets.brands) {
        const narrowed = await search(env(), `${base.replace(/&?brand=[^&]*/g, '')}&brand=${encodeURIComponent(facet.value)}`);
        expect(narrowed.total, `${base} brand ${facet.value}`).toBe(facet.count);
      }
    }
    const { facets } = await search(env(), 'minPrice=10&maxPrice=12');
    const priced = rows.map(shownCents).filter((cents) => cents !== null);
    expect(facets.price).toEqual({ min: Math.min(...priced) / 100, max: Math.max(...priced) / 100 });
  });

  it('refuses a cursor it did not issue or from another sort, with a field error', async () => {
    const first = await search(env(), 'sort=price_asc&limit=3');
    expect(first.nextCursor).not.toBeNull();
    for (const cursor of ['abc', 'x'.repeat(90), first.nextCursor!.slice(1)]) {
      const response = await env().request({ method: 'GET', url: `/api/search?sort=price_asc&cursor=${encodeURIComponent(cursor)}` });
      expect(response.statusCode).toBe(422);
    }
    const other = await env().request({ method: 'GET', url: `/api/search?sort=rating&cursor=${first.nextCursor}` });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.fieldErrors.cursor).toBeDefined();
  });

  it('answers a well-formed cursor whose key no row can have with 422 "Invalid cursor", never a database error', async () => {
    const forged = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    const cases: Array<[string, string]> = [
      ['price_asc', forged('price_asc:99999999999:5')],
      ['price_desc', forged('price_desc:-99999999999:5')],
      ['price_asc', forged('price_asc:-1:5')],
      ['rating', forged('rating:9000000000000000:5')],
      ['relevance', forged('relevance:2147483648:5')],
      ['newest', forged('newest:6:5')],
    ];
    for (const [sort, cursor] of cases) {
      const words = sort === 'relevance' ? '&q=pen' : '';
      const response = await env().request({ method: 'GET', url: `/api/search?sort=${sort}${words}&cursor=${cursor}` });
      expect(response.statusCode, `${sort} ${cursor}`).toBe(422);
      expect(response.json()).toEqual({
        error: {
          code: 'VALIDATION',
          title: 'Invalid cursor',
          message: 'The cursor is not valid. Start again from the first page.',
          fieldErrors: { cursor: ['Invalid cursor'] },
        },
      });
    }
    // The largest keys a sort can write still read as a page.
    const fits = await env().request({ method: 'GET', url: `/api/search?sort=price_asc&cursor=${forged('price_asc:2147483647:1')}` });
    expect(fits.statusCode, fits.body).toBe(200);
  });

  it('answers bad filters with 422, its field and its message', async () => {
    for (const [query, field, message] of [
      ['category=Toys', 'category.0', 'Choose one of the six categories'],
      ['minPrice=abc', 'minPrice', 'Minimum price must be a number'],
      ['minPrice=1.234', 'minPrice', 'Minimum price has at most two decimals'],
      ['minPrice=9&maxPrice=3', 'maxPrice', 'Minimum price is above the maximum'],
      ['maxMoq=0', 'maxMoq', 'MOQ must be at least 1'],
      ['maxMoq=2.5', 'maxMoq', 'MOQ must be a whole number'],
      ['inStock=yes', 'inStock', 'inStock is true or false'],
      ['sort=cheapest', 'sort', 'Sort is one of relevance, price_asc, price_desc, newest, rating'],
      ['brand=%20', 'brand.0', 'Brand is empty'],
      ['limit=500', 'limit', 'Too big: expected number to be <=200'],
      [`q=${'a'.repeat(1001)}`, 'q', 'The search must be at most 1000 characters'],
    ] as const) {
      const response = await env().request({ method: 'GET', url: `/api/search?${query}` });
      expect(response.statusCode, query).toBe(422);
      expect(response.json().error.fieldErrors[field], query).toEqual([message]);
    }
  });

  it('never answers 5xx to hostile or odd queries', async () => {
    const hostile = [
      'a & | !b:*',
      "'; DROP TABLE products; --",
      '!!!',
      ':*',
      '(((',
      "glove' | 'x",
      '\\',
      '%_%',
      'a:*A & b',
      'ñandú 漢字 😀',
      '\u0301\u0301',
      '\u0000',
      'a'.repeat(1000),
      'word '.repeat(200),
      '<script>',
    ];
    for (const q of hostile) {
      for (const path of ['/api/search', '/api/search/suggest']) {
        const response = await env().request({ method: 'GET', url: `${path}?q=${encodeURIComponent(q)}` });
        expect(response.statusCode, `${path} ${JSON.stringify(q)}`).toBeLessThan(500);
      }
    }
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 60 }), async (q) => {
        const response = await env().request({ method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}&sort=relevance` });
        expect(response.statusCode).toBe(200);
      }),
      { numRuns: 40 },
    );
    const [{ count }] = (await queryRows<{ count: number }>(env().db(), sql`SELECT count(*)::integer AS count FROM products`)) as [{ count: number }];
    expect(count).toBe(rows.length);
  });

  it('an empty query with filters lists by the filters, newest first', async () => {
    const items = await searchAll(env(), 'q=&brand=HomeChef');
    expect(items.map((p) => p._id)).toEqual(
      rows
        .filter((r) => r.brandname === 'HomeChef')
        .map((r) => r.id)
        .reverse(),
    );
  });

  it('suggests product names and categories for a prefix, at most eight', async () => {
    const response = await env().request({ method: 'GET', url: '/api/search/suggest?q=stap' });
    expect(response.statusCode).toBe(200);
    const { suggestions } = response.json() as SuggestResult;
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(8);
    expect(suggestions.every((s) => s.kind === 'product' && s.text.startsWith('Heavy Duty Stapler'))).toBe(true);
    const office = (await env().request({ method: 'GET', url: '/api/search/suggest?q=offi' })).json() as SuggestResult;
    expect(office.suggestions).toContainEqual({ kind: 'category', text: 'Office Supplies & Stationery' });
    expect(office.suggestions.some((s) => s.kind === 'product' && s.text.startsWith('Office Chair'))).toBe(true);
    const many = (await env().request({ method: 'GET', url: '/api/search/suggest?q=gl' })).json() as SuggestResult;
    expect(many.suggestions.length).toBe(8);
    expect(((await env().request({ method: 'GET', url: '/api/search/suggest?q=s' })).json() as SuggestResult).suggestions).toEqual([]);
  });

  it('suggests the corrected words for a typo that matches nothing, with the names they find, and never corrects a prefix', async () => {
    const suggestFor = async (q: string) =>
      ((await env().request({ method: 'GET', url: `/api/search/suggest?q=${encodeURIComponent(q)}` })).json() as SuggestResult).suggestions;
    // "stpaler" is no prefix of any word; "stapler" is the nearest indexed word.
    const typo = await suggestFor('heavy stpaler');
    expect(typo[0]).toEqual({ kind: 'correction', text: 'heavy stapler' });
    expect(typo.length).toBeGreaterThan(1);
    expect(typo.length).toBeLessThanOrEqual(8);
    expect(typo.slice(1).every((s) => s.kind === 'product' && s.text.startsWith('Heavy Duty Stapler'))).toBe(true);
    // A half-typed word is a prefix: names, no correction.
    expect((await suggestFor('stapl')).some((s) => s.kind === 'correction')).toBe(false);
    // Nothing near: nothing at all.
    expect(await suggestFor('qqqqzzzz')).toEqual([]);
  });

  it('finds a product added or renamed after the index was built, typo included', async () => {
    const seller = await signUpUser(env(), { name: 'Late Seller' });
    const [late] = await seedProducts(env(), seller, [{ name: 'Ergonomic Footrest' }]);
    expect((await search(env(), 'q=footrset')).items.map((p) => p._id)).toEqual([late!.id]);
    await env()
      .db()
      .execute(sql`UPDATE products SET name = 'Ergonomic Monitor Riser' WHERE id = ${late!.id}`);
    expect((await search(env(), 'q=moniter')).items.map((p) => p._id)).toEqual([late!.id]);
    expect((await search(env(), 'q=footrest')).total).toBe(0);
    await env()
      .db()
      .execute(sql`DELETE FROM products WHERE id = ${late!.id}`);
  });

  it('normalises text in the browser as the database does', async () => {
    const { normalizeSearchText } = await import('@bulkcart/contracts');
    const samples = ['Crème Brûlée', 'ÅNGSTRÖM', 'Søren Łódź', 'Straße', 'naïve café', 'Ærø', 'İstanbul', 'plain'];
    const rowsOut = await queryRows<{ n: string }>(
      env().db(),
      sql`SELECT search_normalize(s) AS n FROM unnest(ARRAY[${sql.join(
        samples.map((s) => sql`${s}`),
        sql`, `,
      )}]::text[]) WITH ORDINALITY AS t(s, i) ORDER BY i`,
    );
    expect(rowsOut.map((r) => r.n)).toEqual(samples.map(normalizeSearchText));
  });
});
