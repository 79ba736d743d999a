import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { SearchResult } from '@bulkcart/contracts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { runMigrations } from '../../db/migrate.ts';
import { queryRows } from '../../db/rows.ts';
import { products } from '../../db/schema/index.ts';
import { OTHER_SELLER, seedProduct, seedProducts } from '../../../test/helpers/products.ts';
import { TEST_ORIGIN, createPostgresDatabase, describeEachDatabase } from '../../../test/helpers/test-app.ts';
import type { Db } from '../../db/client.ts';

/** Answers are cached under the catalog version (search-cache.ts); these tests hold the cache to the truth. */

type Request = (url: string) => Promise<SearchResult>;

function searcher(app: FastifyInstance): Request {
  return async (url) => {
    const response = await app.inject({ method: 'GET', url: `/api/search?${url}`, headers: { origin: TEST_ORIGIN } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
}

async function catalogVersion(db: Db): Promise<number> {
  const [row] = await queryRows<{ version: string }>(db, sql`SELECT version FROM search_catalog_version`);
  return Number(row?.version);
}

/** Forget every cached answer the honest way: a new catalog version. */
async function bumpVersion(db: Db): Promise<void> {
  await db.execute(sql`UPDATE search_catalog_version SET version = version + 1`);
}

const ids = (answer: SearchResult) => answer.items.map((p) => p._id);

describeEachDatabase('search cache', (env) => {
  const search: Request = (url) => searcher(env().app)(url);

  it('a cached answer is the answer a fresh search gives, for every sort, page and filter', async () => {
    await seedProducts(
      env(),
      OTHER_SELLER,
      Array.from({ length: 9 }, (_, i) => ({
        name: `Quokka Crate ${i}`,
        brandname: i % 2 ? 'QuokkaCo' : 'CrateWorks',
        priceCents: 100 * (i + 1),
        rating: 1 + (i % 5),
      })),
    );
    for (const query of [
      'q=quokka&limit=4',
      'q=quokka&sort=price_asc&limit=4',
      'q=quokka&sort=rating&limit=4',
      'q=quokka&brand=QuokkaCo&inStock=true',
      'q=quokka crate&sort=newest&limit=4',
    ]) {
      const first = await search(query);
      // Nine products match: a 4-item page has a next one, and its cache is checked below too.
      expect(Boolean(first.nextCursor), query).toBe(query.includes('limit=4'));
      const cached = await search(query);
      expect(cached, query).toEqual(first);
      const second = first.nextCursor ? await search(`${query}&cursor=${encodeURIComponent(first.nextCursor)}`) : null;
      await bumpVersion(env().db());
      expect(await search(query), query).toEqual(first);
      if (first.nextCursor) expect(await search(`${query}&cursor=${encodeURIComponent(first.nextCursor)}`)).toEqual(second);
    }
  });

  it('a product written through any path is seen by the very next search', async () => {
    const [a, b] = await seedProducts(env(), OTHER_SELLER, [
      { name: 'Wallaby Tote', brandname: 'Marsupial', priceCents: 900, mainquantity: 500, minquantity: 10, rating: 2 },
      { name: 'Wallaby Tote XL', brandname: 'Marsupial', priceCents: 1_500, mainquantity: 500, minquantity: 10, rating: 4 },
    ]);
    const db = env().db();
    const total = async (url: string) => (await search(url)).total;

    expect(await total('q=wallaby')).toBe(2);
    const added = await seedProduct(env(), OTHER_SELLER, { name: 'Wallaby Tote Mini', brandname: 'Marsupial' });
    expect(await total('q=wallaby')).toBe(3);
    await db.delete(products).where(eq(products.id, added.id));
    expect(await total('q=wallaby')).toBe(2);

    expect(await total('q=wallaby&maxPrice=10')).toBe(1);
    await db.update(products).set({ priceCents: 800 }).where(eq(products.id, b!.id));
    expect(await total('q=wallaby&maxPrice=10')).toBe(2);

    expect(await total('q=wallaby&inStock=true')).toBe(2);
    await db.update(products).set({ mainquantity: 3 }).where(eq(products.id, a!.id));
    expect(await total('q=wallaby&inStock=true')).toBe(1);
    await db.update(products).set({ minquantity: 2 }).where(eq(products.id, a!.id));
    expect(await total('q=wallaby&inStock=true')).toBe(2);

    expect(ids(await search('q=wallaby&sort=rating'))).toEqual([b!.id, a!.id]);
    await db.update(products).set({ rating: 5 }).where(eq(products.id, a!.id));
    expect(ids(await search('q=wallaby&sort=rating'))).toEqual([a!.id, b!.id]);

    const brands = async () => (await search('q=wallaby')).facets.brands;
    expect(await brands()).toEqual([{ value: 'Marsupial', count: 2 }]);
    await db.update(products).set({ brandname: 'Pouch & Co' }).where(eq(products.id, a!.id));
    expect(await brands()).toEqual([
      { value: 'Marsupial', count: 1 },
      { value: 'Pouch & Co', count: 1 },
    ]);

    await db.update(products).set({ name: 'Kangaroo Tote' }).where(eq(products.id, a!.id));
    expect(ids(await search('q=wallaby'))).toEqual([b!.id]);
    expect(ids(await search('q=kangarooo'))).toEqual([a!.id]);
  });

  it('a stock change that leaves a product on the same side of its MOQ keeps the version, and the page shows the new stock', async () => {
    const row = await seedProduct(env(), OTHER_SELLER, { name: 'Numbat Bucket', mainquantity: 1_000, minquantity: 10 });
    const before = await search('q=numbat&inStock=true');
    expect(before.items.map((p) => p.mainquantity)).toEqual([1_000]);
    const version = await catalogVersion(env().db());
    await env().db().update(products).set({ mainquantity: 990 }).where(eq(products.id, row.id));
    expect(await catalogVersion(env().db())).toBe(version);
    expect((await search('q=numbat&inStock=true')).items.map((p) => p.mainquantity)).toEqual([990]);
    await env().db().update(products).set({ mainquantity: 5 }).where(eq(products.id, row.id));
    expect(await catalogVersion(env().db())).toBe(version + 1);
    expect((await search('q=numbat&inStock=true')).total).toBe(0);
  });

  it('a transaction of many product writes changes the version once, at commit', async () => {
    const version = await catalogVersion(env().db());
    await env()
      .db()
      .transaction(async (tx) => {
        await seedProducts({ db: () => tx as unknown as Db }, OTHER_SELLER, [{ name: 'Bilby Box 1' }, { name: 'Bilby Box 2' }]);
        await tx
          .update(products)
          .set({ priceCents: 1_234 })
          .where(sql`${products.name} LIKE 'Bilby Box%'`);
      });
    expect(await catalogVersion(env().db())).toBe(version + 1);
    expect((await search('q=bilby&minPrice=12.34&maxPrice=12.34')).total).toBe(2);
  });
});

describe('search cache across two app instances on one PostgreSQL', () => {
  it('a write committed through one instance is seen by the very next search of the other', async () => {
    const pgDb = await createPostgresDatabase();
    const config = loadConfig({ NODE_ENV: 'test', BASE_URL: TEST_ORIGIN, RATE_LIMIT: 'false', DATABASE_URL: pgDb.url });
    const databases: Database[] = [];
    const apps: FastifyInstance[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const database = await openDatabase(config.database);
        databases.push(database);
        if (i === 0) await runMigrations(database);
        const { app } = await buildApp({ config, database, logger: false });
        await app.ready();
        apps.push(app);
      }
      const [first, second] = apps.map(searcher) as [Request, Request];
      const writer = { db: () => databases[1]!.db };
      const [row] = await seedProducts(writer, OTHER_SELLER, [{ name: 'Dingo Lead', priceCents: 2_000, mainquantity: 100, minquantity: 10 }]);
      expect((await first('q=dingo')).total).toBe(1);
      expect((await first('q=dingo&inStock=true&maxPrice=15')).total).toBe(0);

      await seedProducts(writer, OTHER_SELLER, [{ name: 'Dingo Collar', priceCents: 700 }]);
      expect((await first('q=dingo')).total).toBe(2);
      await writer.db().update(products).set({ priceCents: 1_400 }).where(eq(products.id, row!.id));
      expect((await first('q=dingo&inStock=true&maxPrice=15')).total).toBe(2);
      await writer.db().update(products).set({ mainquantity: 0 }).where(eq(products.id, row!.id));
      expect((await first('q=dingo&inStock=true&maxPrice=15')).total).toBe(1);
      expect(await second('q=dingo&inStock=true&maxPrice=15')).toEqual(await first('q=dingo&inStock=true&maxPrice=15'));
    } finally {
      for (const app of apps) await app.close();
      for (const database of databases) await database.close();
      await pgDb.drop();
    }
  });
});
