import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Order } from '@bulkcart/contracts/order';
import type { Product } from '@bulkcart/contracts/product';
import { expect, type E2EUser } from './fixtures.ts';

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
