import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Cart, CartAddAnswer, Order, Product, SearchResult, SuggestResult } from '@bulkcart/contracts';
import { describeEachDatabase } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { cellsDifferingFromProducts, planOfProductPage, seedProduct } from '../../../test/helpers/products.ts';
import { addedResults, checkout, getCart, putLine, setLine } from '../../../test/helpers/cart.ts';
import { orders, products, type ProductRow } from '../../db/schema/index.ts';

/**
 * An unlisted product (docs/product/rules.md, "Unlisted products"): absent for buyers wherever a product
 * is listed or bought, kept for the order placed before, shown to its seller in My Product, listed again
 * by them. Two products of one brand, one of them unlisted after a buyer ordered it and put it in a cart:
 * every check below would see it if the filter it tests were missing.
 */
describeEachDatabase('unlisted products', (env) => {
  let seller: TestUser;
  let buyer: TestUser;
  let listed: ProductRow;
  let hidden: ProductRow;
  let orderId: string;

  beforeAll(async () => {
    [seller, buyer] = await Promise.all([signUpUser(env(), { name: 'Tidewell Seller' }), signUpUser(env(), { name: 'Tidewell Buyer' })]);
    const common = { brandname: 'Tidewell', category: 'Home & Kitchen Appliances', minquantity: 10, mainquantity: 1_000, priceCents: 900, discount: 0 };
    listed = await seedProduct(env(), seller, { ...common, name: 'Harbor Lantern Brass', sku: 'TIDE-1', rating: 3 });
    hidden = await seedProduct(env(), seller, { ...common, name: 'Harbor Lantern Copper', sku: 'TIDE-2', rating: 5, priceCents: 1_500 });
    const order = await env().request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId: hidden.id, quantity: 10 } });
    expect(order.statusCode, order.body).toBe(201);
    orderId = (order.json() as Order)._id;
    await setLine(env(), asUser(buyer), hidden.id, 20);
    await env().db().update(products).set({ unlistedAt: new Date() }).where(eq(products.id, hidden.id));
  });

  const ids = (items: Array<{ _id: string }>) => items.map((p) => p._id);
  const get = (url: string, headers: Record<string, string> = {}) => env().request({ method: 'GET', url, headers });

  it('is absent from the catalog, the featured products, search with and without words, its facet counts and suggestions', async () => {
    expect(ids((await get('/api/allproduct?limit=200')).json() as Product[])).toEqual([listed.id]);
    expect(ids((await get('/api/allproduct?category=Home%20%26%20Kitchen%20Appliances')).json() as Product[])).toEqual([listed.id]);
    expect(ids((await get('/api/topproduct')).json() as Product[])).toEqual([listed.id]);
    for (const query of ['q=harbor%20lantern', 'q=harbor&sort=price_desc', 'brand=Tidewell', 'brand=Tidewell&sort=rating', 'minPrice=1&maxPrice=100']) {
      const result = (await get(`/api/search?${query}`)).json() as SearchResult;
      expect(ids(result.items), query).toEqual([listed.id]);
      expect(result.total, query).toBe(1);
      expect(result.facets.brands, query).toEqual([{ value: 'Tidewell', count: 1 }]);
      expect(result.facets.price, query).toEqual({ min: 9, max: 9 });
    }
    expect(await cellsDifferingFromProducts(env().db())).toBe(0);
    const suggested = ((await get('/api/search/suggest?q=harbor')).json() as SuggestResult).suggestions.map((s) => s.text);
    expect(suggested).toContain('Harbor Lantern Brass');
    expect(suggested).not.toContain('Harbor Lantern Copper');
  });

  it('reads the catalog lists through an index, the partial ones included, with the listed filter on it', async () => {
    const planOf = (filter: Parameters<typeof planOfProductPage>[1]) => planOfProductPage(env().db(), filter);
    // On a table this small the planner picks among the catalog's indexes freely; what must hold is that
    // one serves each list (the partial `minquantity > 100` ones included) and the filter rides on it.
    const plans = {
      all: await planOf({ beforeSeq: null, take: 49 }),
      available: await planOf({ availableOnly: true, beforeSeq: null, take: 49 }),
      'available in a category': await planOf({ availableOnly: true, category: 'Office Supplies & Stationery', beforeSeq: null, take: 49 }),
    };
    for (const [list, plan] of Object.entries(plans)) {
      expect(plan, list).not.toMatch(/Seq Scan/);
      expect(plan, list).toMatch(/products_\w+_idx/);
      expect(plan, list).toContain('unlisted_at IS NULL');
    }
    expect(plans.available).toMatch(/products_(category_)?available_seq_idx/);
  });

  it('answers 404 on its page and its seller, to buyers and its seller alike', async () => {
    for (const headers of [{}, asUser(buyer), asUser(seller)]) {
      const page = await get(`/api/product/${hidden.id}`, headers);
      expect(page.statusCode).toBe(404);
      expect(page.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'This product does not exist (it may have been deleted).' } });
    }
    expect((await get(`/api/product/${hidden.id}/seller`)).statusCode).toBe(404);
    expect((await get(`/api/product/${listed.id}`)).statusCode).toBe(200);
  });

  it('cannot be bought: cart, quick order, Buy Now, checkout, lists, reorder; the order placed before stays as it was', async () => {
    const added = await putLine(env(), asUser(buyer), hidden.id, 30);
    expect(added.statusCode).toBe(404);
    const pasted = await addedResults(env(), asUser(buyer), { text: 'TIDE-2, 10\nTIDE-1, 10' });
    expect(pasted.map((r) => r.status)).toEqual(['error', 'added']);
    const picked = await addedResults(env(), asUser(buyer), { lines: [{ productId: hidden.id, quantity: 10 }] });
    expect(picked).toEqual([expect.objectContaining({ status: 'error', message: 'Unknown product: it does not exist or is no longer sold.' })]);
    await putLine(env(), asUser(buyer), listed.id, 0);
    expect((await get('/api/skus?q=TIDE', asUser(buyer))).json()).toEqual([expect.objectContaining({ productId: listed.id, sku: 'TIDE-1' })]);
    const buyNow = await env().request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId: hidden.id, quantity: 10 } });
    expect(buyNow.statusCode).toBe(404);

    // The line put in the cart while it was listed now says why it cannot be bought, and blocks the checkout.
    const cart = await getCart(env(), asUser(buyer));
    expect(cart.lines).toEqual([
      expect.objectContaining({ productId: hidden.id, problem: expect.objectContaining({ code: 'deleted', message: 'This product is no longer sold.' }) }),
    ]);
    const refused = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, randomUUID());
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: { message: 'Some lines or sellers need a change before checkout; nothing was placed.' } });
    expect((await getCart(env(), asUser(buyer))).count).toBe(1);

    const list = await env().request({
      method: 'POST',
      url: '/api/lists',
      headers: asUser(buyer),
      payload: { name: 'Lanterns', lines: [{ productId: hidden.id, quantity: 10 }] },
    });
    expect(list.statusCode).toBe(404);
    await env().db().update(orders).set({ status: 'delivered' }).where(eq(orders.id, orderId));
    const reorder = (await env().request({ method: 'POST', url: `/api/order/${orderId}/reorder`, headers: asUser(buyer) })).json() as CartAddAnswer;
    expect(reorder.results).toEqual([expect.objectContaining({ status: 'error', message: 'Unknown product: it does not exist or is no longer sold.' })]);

    const [row] = await env().db().select({ mainquantity: products.mainquantity }).from(products).where(eq(products.id, hidden.id));
    expect(row?.mainquantity).toBe(990);
    const order = (await get(`/api/order/${orderId}`, asUser(buyer))).json() as Order;
    expect(order).toMatchObject({
      _id: orderId,
      status: 'delivered',
      lines: [{ productId: hidden.id, quantity: 10, unitPrice: 15, product: { name: 'Harbor Lantern Copper' } }],
    });
  });

  it('shows to its seller in My Product as unlisted, and lists again when they ask (only they may)', async () => {
    const own = (await get(`/api/products/${encodeURIComponent(seller.email)}`, asUser(seller))).json() as Product[];
    expect(own.map((p) => [p._id, p.unlisted])).toEqual([
      [hidden.id, true],
      [listed.id, false],
    ]);
    const relist = (who: Record<string, string>) => env().request({ method: 'POST', url: `/api/my/products/${hidden.id}/relist`, headers: who });
    expect((await relist(asUser(buyer))).statusCode).toBe(403);
    expect((await get(`/api/product/${hidden.id}`)).statusCode).toBe(404);

    const relisted = await relist(asUser(seller));
    expect(relisted.statusCode, relisted.body).toBe(200);
    expect(relisted.json()).toMatchObject({ _id: hidden.id, unlisted: false, mainquantity: 990, name: 'Harbor Lantern Copper' });
    expect((await get(`/api/product/${hidden.id}`)).json()).toMatchObject({ _id: hidden.id, unlisted: false });
    const result = (await get('/api/search?brand=Tidewell')).json() as SearchResult;
    expect(ids(result.items).sort()).toEqual([listed.id, hidden.id].sort());
    expect(result.facets.brands).toEqual([{ value: 'Tidewell', count: 2 }]);
    expect(result.facets.price).toEqual({ min: 9, max: 15 });
    expect(await cellsDifferingFromProducts(env().db())).toBe(0);
    expect(((await getCart(env(), asUser(buyer))) as Cart).lines).toEqual([expect.objectContaining({ productId: hidden.id, problem: null })]);
    // Relisting a listed product answers it as it is.
    expect((await relist(asUser(seller))).json()).toMatchObject({ _id: hidden.id, unlisted: false });
    expect((await env().request({ method: 'POST', url: `/api/my/products/${randomUUID()}/relist`, headers: asUser(seller) })).statusCode).toBe(404);
  });
});
