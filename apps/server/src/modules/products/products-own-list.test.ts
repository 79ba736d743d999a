import { beforeAll, expect, it } from 'vitest';
import type { Product } from '@bulkcart/contracts';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { planOfProductPage, readAllPages, seedProducts } from '../../../test/helpers/products.ts';

/**
 * My Product's search and stock filter (GET /api/products/{email}?q&stock). The expected lists are
 * written out by hand from the seeded rows: stock is sold out below one minimum order, low below five
 * of them, else in stock; the newest row comes first.
 */
describeEachDatabase("a seller's own list: search and stock", (env) => {
  let seller: TestUser;
  let other: TestUser;
  const names: Record<string, string> = {};

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Stock Seller' });
    other = await signUpUser(env(), { name: 'Stock Other' });
    const rows = await seedProducts(env(), seller, [
      { name: 'Steel Kettle', sku: 'KT-100', mainquantity: 1_000, minquantity: 10 }, // in stock
      { name: 'Kettle Descaler', sku: 'DS-1', mainquantity: 49, minquantity: 10 }, // low: 49 < 50
      { name: 'Paper Cups', sku: 'CUP_9', mainquantity: 9, minquantity: 10 }, // sold out: 9 < 10
      { name: 'Paper Plates', sku: null, mainquantity: 50, minquantity: 10 }, // in stock: 50 is five orders
      { name: 'Copper Kettle', sku: null, mainquantity: 10, minquantity: 10 }, // low: exactly one order
      { name: 'Mug', sku: 'CUPX9', mainquantity: 0, minquantity: 1 }, // sold out
    ]);
    for (const row of rows) names[row.id] = row.name;
    await seedProducts(env(), other, [{ name: 'Steel Kettle Other', sku: 'KT-100', mainquantity: 5, minquantity: 10 }]);
  });

  async function listed(query: string): Promise<string[]> {
    const { pages } = await readAllPages(env(), `/api/products/${encodeURIComponent(seller.email)}?${query}`, asUser(seller));
    return pages.flat().map((p: Product) => names[p._id] ?? `not mine: ${p.name}`);
  }

  it('filters by stock state, newest first, and only my products', async () => {
    expect(await listed('stock=in_stock')).toEqual(['Paper Plates', 'Steel Kettle']);
    expect(await listed('stock=low')).toEqual(['Copper Kettle', 'Kettle Descaler']);
    expect(await listed('stock=sold_out')).toEqual(['Mug', 'Paper Cups']);
    expect(await listed('')).toEqual(['Mug', 'Copper Kettle', 'Paper Plates', 'Paper Cups', 'Kettle Descaler', 'Steel Kettle']);
  });

  it('searches words as prefixes (any case) or the start of the SKU, with LIKE wildcards taken literally', async () => {
    expect(await listed('q=kettle')).toEqual(['Copper Kettle', 'Kettle Descaler', 'Steel Kettle']);
    expect(await listed('q=KETT')).toEqual(['Copper Kettle', 'Kettle Descaler', 'Steel Kettle']);
    expect(await listed('q=steel%20kettle')).toEqual(['Steel Kettle']);
    expect(await listed('q=kt-1')).toEqual(['Steel Kettle']);
    // "_" is a character of the SKU, not LIKE's any-one-character: CUPX9 does not start with "cup_".
    expect(await listed('q=CUP_')).toEqual(['Paper Cups']);
    expect(await listed('q=%25')).toEqual([]);
    expect(await listed('q=%20%20')).toHaveLength(6);
    expect(await listed('q=kettle&stock=low')).toEqual(['Copper Kettle', 'Kettle Descaler']);
  });

  it('keeps q and stock in the next-page link', async () => {
    const { pages, links } = await readAllPages(env(), `/api/products/${encodeURIComponent(seller.email)}?limit=1&q=kettle&stock=low`, asUser(seller));
    expect(pages.map((page) => page.map((p) => names[p._id]))).toEqual([['Copper Kettle'], ['Kettle Descaler']]);
    expect(links[0]).toMatch(/[?&]q=kettle(&|>)/);
    expect(links[0]).toMatch(/[?&]stock=low(&|>)/);
  });

  it('refuses an unknown stock state and a search over 100 characters (422, naming the field)', async () => {
    const bogus = await env().request({ method: 'GET', url: `/api/products/${seller.email}?stock=plenty`, headers: asUser(seller) });
    expect(bogus.statusCode).toBe(422);
    expect(bogus.body).toContain('stock must be one of in_stock, low, sold_out');
    const long = await env().request({ method: 'GET', url: `/api/products/${seller.email}?q=${'a'.repeat(101)}`, headers: asUser(seller) });
    expect(long.statusCode).toBe(422);
    expect(long.body).toContain('q must be at most 100 characters');
    const longest = await env().request({ method: 'GET', url: `/api/products/${seller.email}?q=${'a'.repeat(100)}`, headers: asUser(seller) });
    expect(longest.statusCode).toBe(200);
  });

  // No index covers stock (docs/decisions/027-stock-updates-hot.md): the filter reads the seller's rows newest first.
  it("reads the stock filter through the seller's newest-first index and the search through an index, never a full scan", async () => {
    const planOf = (filter: Parameters<typeof planOfProductPage>[1]) => planOfProductPage(env().db(), filter);
    const byStock = await planOf({ ownerEmail: seller.email, stock: 'low', beforeSeq: null, take: 101 });
    expect(byStock).not.toMatch(/Seq Scan/);
    expect(byStock).toMatch(/products_owner_email_seq_idx|products_seq_idx/);
    const bySearch = await planOf({ ownerEmail: seller.email, text: { tsquery: "'kettle':*", skuPrefix: 'kettle' }, beforeSeq: null, take: 101 });
    expect(bySearch).not.toMatch(/Seq Scan/);
    expect(bySearch).toMatch(/products_\w+_idx/);
  });
});
