import { applyDiscount } from '@bulkcart/contracts/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { CATEGORIES as ALL_CATEGORIES, type SearchResult } from '@bulkcart/contracts';
import { products } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { cellsDifferingFromProducts, OTHER_SELLER, seedProducts } from '../../../test/helpers/products.ts';
import { createTestEnv, describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';

/**
 * search_facet_cells (migration 0007) is the catalog counted for searches without words. These tests
 * hold it to the products: after any writes, committed or rolled back, it equals a count over the
 * products, and the facets it answers equal the facets counted by hand from every product.
 */

const CATEGORIES = ALL_CATEGORIES.slice(0, 3);
const BRANDS = ['Acme', 'Borealis', 'Cobalt'] as const;
const MOQS = [1, 10, 50] as const;
const PRICES = [null, 100, 250, 250, 999, 1000] as const;
/** Discounts move a product's shown price (what search filters by) without touching its list price. */
const DISCOUNTS = [0, 10, 15, 90] as const;

type Write =
  | { kind: 'insert'; category: number; brand: number; moq: number; price: number; stocked: boolean }
  | { kind: 'price'; target: number; price: number }
  | { kind: 'discount'; target: number; discount: number }
  | { kind: 'move'; target: number; category: number; brand: number; moq: number }
  | { kind: 'stock'; target: number; stocked: boolean }
  | { kind: 'rename'; target: number }
  | { kind: 'delete'; target: number };

const pick = (n: number) => fc.nat({ max: n - 1 });
const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    category: pick(CATEGORIES.length),
    brand: pick(BRANDS.length),
    moq: pick(MOQS.length),
    price: pick(PRICES.length),
    stocked: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('price' as const), target: fc.nat(), price: pick(PRICES.length) }),
  fc.record({ kind: fc.constant('discount' as const), target: fc.nat(), discount: pick(DISCOUNTS.length) }),
  fc.record({ kind: fc.constant('move' as const), target: fc.nat(), category: pick(CATEGORIES.length), brand: pick(BRANDS.length), moq: pick(MOQS.length) }),
  fc.record({ kind: fc.constant('stock' as const), target: fc.nat(), stocked: fc.boolean() }),
  fc.record({ kind: fc.constant('rename' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat() }),
);

/** Stock either side of the product's MOQ: a flip moves the product to the other "in stock" cell. */
const stockFor = (moq: number, stocked: boolean) => (stocked ? moq + 5 : moq - 1);

async function apply(db: Db, ids: string[], w: Write): Promise<void> {
  if (w.kind === 'insert') {
    const moq = MOQS[w.moq]!;
    const [row] = await db
      .insert(products)
      .values({
        name: 'Cell test product',
        image: '/images/products/cell.webp',
        brandname: BRANDS[w.brand]!,
        category: CATEGORIES[w.category]!,
        priceCents: PRICES[w.price]!,
        minquantity: moq,
        mainquantity: stockFor(moq, w.stocked),
        ownerEmail: OTHER_SELLER.email,
      })
      .returning({ id: products.id });
    ids.push(row!.id);
    return;
  }
  if (ids.length === 0) return;
  const id = ids[w.target % ids.length]!;
  if (w.kind === 'price') await db.update(products).set({ priceCents: PRICES[w.price]! }).where(eq(products.id, id));
  if (w.kind === 'discount') await db.update(products).set({ discount: DISCOUNTS[w.discount]! }).where(eq(products.id, id));
  if (w.kind === 'move') {
    // Stock stays on its side of the MOQ whatever the new MOQ is.
    await db
      .update(products)
      .set({
        category: CATEGORIES[w.category]!,
        brandname: BRANDS[w.brand]!,
        minquantity: MOQS[w.moq]!,
        mainquantity: sql`CASE WHEN ${products.mainquantity} >= ${products.minquantity} THEN ${MOQS[w.moq]! + 5}::integer ELSE ${MOQS[w.moq]! - 1}::integer END`,
      })
      .where(eq(products.id, id));
  }
  if (w.kind === 'stock')
    await db
      .update(products)
      .set({ mainquantity: sql`CASE WHEN ${w.stocked}::boolean THEN ${products.minquantity} + 5 ELSE ${products.minquantity} - 1 END` })
      .where(eq(products.id, id));
  if (w.kind === 'rename')
    await db
      .update(products)
      .set({ name: sql`${products.name} || ' renamed'` })
      .where(eq(products.id, id));
  if (w.kind === 'delete') {
    await db.delete(products).where(eq(products.id, id));
    ids.splice(ids.indexOf(id), 1);
  }
}

class RolledBack extends Error {}

interface Filters {
  categories: string[];
  brands: string[];
  minPrice?: number;
  maxPrice?: number;
  maxMoq?: number;
  inStock: boolean;
}

const filters: fc.Arbitrary<Filters> = fc.record(
  {
    categories: fc.subarray([...CATEGORIES]),
    brands: fc.subarray([...BRANDS]),
    minPrice: fc.constantFrom(0.99, 1, 1.01, 2.5, 9.99, 10),
    maxPrice: fc.constantFrom(1, 2.49, 2.5, 9.99, 10, 10.01),
    maxMoq: fc.constantFrom(...MOQS),
    inStock: fc.boolean(),
  },
  { requiredKeys: ['categories', 'brands', 'inStock'] },
);

function queryOf(f: Filters): string {
  const params = new URLSearchParams();
  for (const c of f.categories) params.append('category', c);
  for (const b of f.brands) params.append('brand', b);
  if (f.minPrice !== undefined) params.set('minPrice', String(f.minPrice));
  if (f.maxPrice !== undefined) params.set('maxPrice', String(f.maxPrice));
  if (f.maxMoq !== undefined) params.set('maxMoq', String(f.maxMoq));
  if (f.inStock) params.set('inStock', 'true');
  return params.toString();
}

type Counted = Array<{ value: string; count: number }>;
const byValue = (list: Counted) => [...list].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));

/** The facets of a search without words, counted by hand from every product (what the cells must equal). */
async function facetsByHand(db: Db, f: Filters): Promise<{ categories: Counted; brands: Counted; total: number; price: SearchResult['facets']['price'] }> {
  const rows = await db
    .select({
      category: products.category,
      brand: products.brandname,
      listCents: products.priceCents,
      discount: products.discount,
      moq: products.minquantity,
      stock: products.mainquantity,
    })
    .from(products);
  // The price a card shows (PriceTag: the list price with the discount), which the price filter and range are about.
  const all = rows.map((p) => ({ ...p, price: p.listCents === null ? null : applyDiscount(p.listCents, p.discount) }));
  const matches = all.filter((p) => (f.maxMoq === undefined || p.moq <= f.maxMoq) && (!f.inStock || p.stock >= p.moq));
  const inCategory = (p: (typeof all)[number]) => f.categories.length === 0 || f.categories.includes(p.category);
  const inBrand = (p: (typeof all)[number]) => f.brands.length === 0 || f.brands.includes(p.brand);
  const inPrice = (p: (typeof all)[number]) =>
    f.minPrice === undefined && f.maxPrice === undefined
      ? true
      : p.price !== null &&
        (f.minPrice === undefined || p.price >= Math.round(f.minPrice * 100)) &&
        (f.maxPrice === undefined || p.price <= Math.round(f.maxPrice * 100));
  const countBy = (key: (p: (typeof all)[number]) => string, keep: (p: (typeof all)[number]) => boolean): Counted =>
    [...new Set(matches.map(key))].map((value) => ({ value, count: matches.filter((p) => key(p) === value && keep(p)).length }));
  const brands = countBy(
    (p) => p.brand,
    (p) => inCategory(p) && inPrice(p),
  ).filter((b) => b.count > 0 || f.brands.includes(b.value));
  const priced = matches.filter((p) => inCategory(p) && inBrand(p) && p.price !== null).map((p) => p.price!);
  return {
    categories: countBy(
      (p) => p.category,
      (p) => inBrand(p) && inPrice(p),
    ),
    brands,
    total: matches.filter((p) => inCategory(p) && inBrand(p) && inPrice(p)).length,
    price: priced.length === 0 ? null : { min: Math.min(...priced) / 100, max: Math.max(...priced) / 100 },
  };
}

describeEachDatabase('search facet cells', (env: () => TestEnv) => {
  const ids: string[] = [];

  it('equal a count over the products after any writes, committed or rolled back', async () => {
    const seeded = await seedProducts(env(), OTHER_SELLER, [
      { category: CATEGORIES[0], brandname: BRANDS[0], priceCents: 250, minquantity: 10 },
      { category: CATEGORIES[1], brandname: BRANDS[1], priceCents: null, minquantity: 1 },
    ]);
    ids.push(...seeded.map((row) => row.id));
    expect(await cellsDifferingFromProducts(env().db())).toBe(0);
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 10 }), fc.boolean(), async (writes, rollBack) => {
        const before = [...ids];
        try {
          await env()
            .db()
            .transaction(async (tx) => {
              for (const w of writes) await apply(tx as unknown as Db, ids, w);
              if (rollBack) throw new RolledBack();
            });
        } catch (error) {
          if (!(error instanceof RolledBack)) throw error;
          ids.splice(0, ids.length, ...before);
        }
        expect(await cellsDifferingFromProducts(env().db()), JSON.stringify({ writes, rollBack })).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it('answer the facets a count over every product gives, for any filters', async () => {
    // A catalog the first test left, topped up so that every category, brand, MOQ and price occurs.
    await seedProducts(
      env(),
      OTHER_SELLER,
      Array.from({ length: 36 }, (_, i) => ({
        category: CATEGORIES[i % CATEGORIES.length],
        brandname: BRANDS[Math.floor(i / 3) % BRANDS.length],
        minquantity: MOQS[i % MOQS.length],
        mainquantity: i % 4 === 0 ? 0 : 500,
        priceCents: PRICES[i % PRICES.length],
        discount: DISCOUNTS[i % DISCOUNTS.length],
      })),
    );
    await fc.assert(
      fc.asyncProperty(filters, async (f) => {
        if (f.minPrice !== undefined && f.maxPrice !== undefined && f.minPrice > f.maxPrice) return;
        const response = await env().request({ method: 'GET', url: `/api/search?${queryOf(f)}` });
        expect(response.statusCode, response.body).toBe(200);
        const answer: SearchResult = response.json();
        const expected = await facetsByHand(env().db(), f);
        expect(byValue(answer.facets.categories), queryOf(f)).toEqual(byValue(expected.categories));
        expect(byValue(answer.facets.brands), queryOf(f)).toEqual(byValue(expected.brands));
        expect(answer.total, queryOf(f)).toBe(expected.total);
        expect(answer.facets.price, queryOf(f)).toEqual(expected.price);
      }),
      { numRuns: 60 },
    );
  });
});

/**
 * PostgreSQL only (PGlite runs one transaction at a time): writers that move products between the same
 * few cells at once. Each writer has products of its own, so any lock they share is a cell's or the
 * version row's; taking the version row first means none of them can deadlock.
 */
describe('search facet cells under concurrent writers [postgres]', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv('postgres');
  });
  afterAll(async () => {
    await env?.close();
  });

  it('30 transactions moving products between shared cells all commit, and the cells equal the products', async () => {
    const WRITERS = 30;
    const seeded = await seedProducts(
      env,
      OTHER_SELLER,
      Array.from({ length: WRITERS * 3 }, (_, i) => ({
        category: CATEGORIES[i % 2],
        brandname: BRANDS[i % 2],
        minquantity: 10,
        mainquantity: 100,
        priceCents: 100 * (1 + (i % 7)),
      })),
    );
    const results = await Promise.allSettled(
      Array.from({ length: WRITERS }, (_, writer) =>
        env.db().transaction(async (tx) => {
          const mine = seeded.slice(writer * 3, writer * 3 + 3);
          // Each writer visits its products in its own order, so commits touch the cells in different orders.
          for (const [step, row] of (writer % 2 === 0 ? mine : [...mine].reverse()).entries()) {
            const flip = (writer + step) % 2 === 0;
            await tx
              .update(products)
              .set({
                category: CATEGORIES[flip ? 1 : 0],
                brandname: BRANDS[flip ? 0 : 1],
                priceCents: 100 * (1 + ((writer + step) % 5)),
                mainquantity: flip ? 5 : 100,
              })
              .where(eq(products.id, row.id));
            await tx.execute(sql`SELECT pg_sleep(0.005)`);
          }
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect(await cellsDifferingFromProducts(env.db())).toBe(0);
  });
});
