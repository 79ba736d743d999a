import { randomUUID } from 'node:crypto';
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import type { Order } from '@bulkcart/contracts/order';
import type { Product } from '@bulkcart/contracts/product';
import { expect, newUser, signUpViaApi, type E2EUser } from './fixtures.ts';

/**
 * Lists a product through the real API as the request's signed-in user, so each test owns its stock.
 * Fields given override the defaults; `null` or '' leaves an optional field empty (e.g. no price).
 */
export async function addProduct(request: APIRequestContext, baseURL: string, fields: object = {}): Promise<Product> {
  const tag = randomUUID().slice(0, 8);
  const response = await request.post('/api/addproduct', {
    headers: { origin: baseURL },
    data: {
      name: `E2E Shipping Cartons ${tag}`,
      image: '/favicon.svg',
      brandname: `BoxCo ${tag}`,
      category: 'Office Supplies & Stationery',
      description: 'Double-wall cartons for wholesale shipping.',
      price: 12,
      rating: 4,
      mainquantity: 500,
      minquantity: 20,
      ...fields,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Product;
}

export async function stockOf(request: APIRequestContext, id: string): Promise<number> {
  const response = await request.get(`/api/product/${id}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as Product).mainquantity;
}

export async function ordersOf(request: APIRequestContext, user: E2EUser): Promise<Order[]> {
  const response = await request.get(`/api/orders/${encodeURIComponent(user.email)}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Order[];
}

/**
 * The home page's featured request is answered by the real server's list of this user's own products
 * (the request is rewritten, the answer is the server's), so a test can feature a product of its own
 * without changing the featured grid that other tests running beside it see.
 */
export async function featureOwnProducts(page: Page, user: E2EUser): Promise<void> {
  await page.route(
    (url) => url.pathname === '/api/topproduct',
    (route) => route.continue({ url: new URL(`/api/products/${encodeURIComponent(user.email)}`, route.request().url()).toString() }),
  );
}

/**
 * A product of another business: a fresh seller signs up in a request context of its own and lists
 * it, so the test's signed-in buyer may buy it (nobody may buy their own product). The seller's
 * context stays open for the seller's own calls; dispose() closes it.
 */
export async function addProductOfAnotherSeller(
  baseURL: string,
  fields: object = {},
): Promise<{ product: Product; seller: E2EUser; sellerRequest: APIRequestContext; dispose: () => Promise<void> }> {
  const sellerRequest = await playwrightRequest.newContext({ baseURL });
  const seller = newUser('seller');
  await signUpViaApi(sellerRequest, baseURL, seller);
  const product = await addProduct(sellerRequest, baseURL, fields);
  return { product, seller, sellerRequest, dispose: () => sellerRequest.dispose() };
}

/** POST /api/order as the request's signed-in user, to the saved ship-to unless one is given. */
export async function placeOrder(request: APIRequestContext, baseURL: string, productId: string, quantity: number, shipTo?: object): Promise<Order> {
  const response = await request.post('/api/order', { headers: { origin: baseURL }, data: { productId, quantity, ...(shipTo ? { shipTo } : {}) } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Order;
}

/** A product of another business, for a buyer to buy (the seller's session is closed at once). */
export async function productOfAnotherSeller(baseURL: string, fields: object = {}): Promise<Product> {
  const { product, dispose } = await addProductOfAnotherSeller(baseURL, fields);
  await dispose();
  return product;
}
