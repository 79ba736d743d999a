import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { COUNTRIES, CURSOR_PATTERN, IMAGE_URL_PATTERN, isSafeImageUrl } from '@bulkcart/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { createTestEnv, type TestEnv } from '../helpers/test-app.ts';
import { asUser, signUpOperator, signUpUser, type TestUser } from '../helpers/accounts.ts';
import { UNKNOWN_ID, validProductBody } from '../helpers/products.ts';
import { multipartBody, tinyPdf, validBusinessBody } from '../helpers/business.ts';
import { isOutsideDescription, OPENAPI_PATH } from '../../src/plugins/openapi.ts';
import { EXPORTS_PER_USER_PER_MINUTE, ORDERS_PER_USER_PER_MINUTE } from '../../src/plugins/rate-limits/route-limits.ts';
import { DOCUMENT_UPLOADS_PER_HOUR } from '../../src/modules/business/business.routes.ts';

/**
 * GET /api/openapi.json against the app itself: the route table the app really registered (not the
 * description's own idea of it), and real answers checked against the schemas the description gives.
 * A route added without a schema, or an answer that drifts from its contract, fails here.
 */

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>>;
}

/** Fastify's `/api/product/:id` is OpenAPI's `/api/product/{id}`. */
function toOpenApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

/** Every operation of the route table that the description must hold, as `GET /api/product/{id}`. */
function registeredOperations(env: TestEnv): string[] {
  const operations = new Set<string>();
  for (const route of env.routes) {
    if (isOutsideDescription(route.url) || (route.schema as { hide?: boolean } | undefined)?.hide) continue;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Fastify adds HEAD beside every GET by itself; the GET describes both.
      if (method === 'HEAD' && env.routes.some((r) => r.url === route.url && [r.method].flat().includes('GET'))) continue;
      operations.add(`${method} ${toOpenApiPath(route.url)}`);
    }
  }
  return [...operations].sort();
}

function describedOperations(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

interface World {
  env: TestEnv;
  seller: TestUser;
  buyer: TestUser;
  productId: string;
  orderId: string;
  /** Orders the seller's desk samples act on, and the seller's notification of one. */
  saleId: string;
  declineId: string;
  bulkId: string;
  notificationId: string;
  operator: TestUser;
  verificationId: string;
  /** The revision of that verification as the queue last showed it. */
  revision: string;
  listId: string;
  importId: string;
}

const OPENAPI_OPERATOR = 'openapi-operator@example.com';
const uploadPermit = ({ env, buyer }: World, file: Buffer) => {
  const body = multipartBody(file);
  return env.request({ method: 'POST', url: '/api/business/document', headers: { ...asUser(buyer), ...body.headers }, payload: body.payload });
};

interface Sample {
  operation: string;
  what: string;
  send(world: World): Promise<LightMyRequestResponse>;
  /** Runs after the answer, to keep what later samples need. */
  keep?(world: World, body: unknown): void;
}

const idOf = (body: unknown) => (body as { _id: string })._id;

const SAMPLE_SHIP_TO = {
  company: 'OpenAPI Buyer Inc',
  line1: '9 Spec Street',
  city: 'Denver',
  region: 'CO',
  postalCode: '80202',
  country: 'US',
  phone: '+1 303 555 0199',
};

/** The cart, checkout, reorder, lists and seller settings (docs/decisions/017-cart-and-checkout.md). */
const CATALOG_CSV =
  'sku,name,category,brandname,minquantity,mainquantity,image\nOA-1,Bolts,Office Supplies & Stationery,Acme,10,100,/images/b.webp\nOA-2,,Toys,Acme,10,100,/images/b.webp\n';

/** Waits for the sample import to leave validating/applying, as the web page does by polling. */
async function settledImport({ env, seller, importId }: World): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    const job = (await env.request({ method: 'GET', url: `/api/catalog-imports/${importId}`, headers: asUser(seller) })).json() as { status: string };
    if (job.status !== 'validating' && job.status !== 'applying') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const CATALOG_SAMPLES: Sample[] = [
  {
    operation: 'GET /api/my/catalog.csv',
    what: 'export',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/my/catalog.csv', headers: asUser(seller) }),
  },
  {
    operation: 'POST /api/catalog-imports',
    what: 'upload',
    send: ({ env, seller }) => {
      const body = multipartBody(Buffer.from(CATALOG_CSV), { field: 'file', filename: 'catalog.csv', type: 'text/csv' });
      return env.request({ method: 'POST', url: '/api/catalog-imports', headers: { ...asUser(seller), ...body.headers }, payload: body.payload });
    },
    keep: (world, body) => {
      world.importId = (body as { id: string }).id;
    },
  },
  {
    operation: 'POST /api/catalog-imports',
    what: 'not multipart (415)',
    send: ({ env, seller }) => env.request({ method: 'POST', url: '/api/catalog-imports', headers: asUser(seller), payload: {} }),
  },
  {
    operation: 'GET /api/catalog-imports/{id}',
    what: 'ready',
    send: async (world) => {
      await settledImport(world);
      return world.env.request({ method: 'GET', url: `/api/catalog-imports/${world.importId}`, headers: asUser(world.seller) });
    },
  },
  {
    operation: 'GET /api/catalog-imports/{id}',
    what: 'unknown (404)',
    send: ({ env, seller }) => env.request({ method: 'GET', url: `/api/catalog-imports/${UNKNOWN_ID}`, headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/catalog-imports',
    what: 'history',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/catalog-imports', headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/catalog-imports/{id}/changes',
    what: 'preview',
    send: ({ env, seller, importId }) => env.request({ method: 'GET', url: `/api/catalog-imports/${importId}/changes`, headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/catalog-imports/{id}/errors.csv',
    what: 'invalid rows',
    send: ({ env, seller, importId }) => env.request({ method: 'GET', url: `/api/catalog-imports/${importId}/errors.csv`, headers: asUser(seller) }),
  },
  {
    operation: 'POST /api/catalog-imports/{id}/apply',
    what: 'apply',
    send: ({ env, seller, importId }) => env.request({ method: 'POST', url: `/api/catalog-imports/${importId}/apply`, headers: asUser(seller) }),
  },
  {
    operation: 'POST /api/catalog-imports/{id}/undo',
    what: 'undo',
    send: async (world) => {
      await settledImport(world);
      return world.env.request({ method: 'POST', url: `/api/catalog-imports/${world.importId}/undo`, headers: asUser(world.seller) });
    },
  },
  {
    operation: 'POST /api/catalog-imports/{id}/apply',
    what: 'undone already (409)',
    send: ({ env, seller, importId }) => env.request({ method: 'POST', url: `/api/catalog-imports/${importId}/apply`, headers: asUser(seller) }),
  },
];

const CART_SAMPLES: Sample[] = [
  { operation: 'GET /api/cart', what: 'empty', send: ({ env, buyer }) => env.request({ method: 'GET', url: '/api/cart', headers: asUser(buyer) }) },
  {
    operation: 'PUT /api/cart/lines/{productId}',
    what: 'set a line',
    send: ({ env, buyer, productId }) => env.request({ method: 'PUT', url: `/api/cart/lines/${productId}`, headers: asUser(buyer), payload: { quantity: 20 } }),
  },
  {
    operation: 'PUT /api/cart/lines/{productId}',
    what: 'below the MOQ (422)',
    send: ({ env, buyer, productId }) => env.request({ method: 'PUT', url: `/api/cart/lines/${productId}`, headers: asUser(buyer), payload: { quantity: 1 } }),
  },
  { operation: 'GET /api/cart', what: 'one line', send: ({ env, buyer }) => env.request({ method: 'GET', url: '/api/cart', headers: asUser(buyer) }) },
  {
    operation: 'DELETE /api/cart/lines/{productId}',
    what: 'remove it',
    send: ({ env, buyer, productId }) => env.request({ method: 'DELETE', url: `/api/cart/lines/${productId}`, headers: asUser(buyer) }),
  },
  {
    operation: 'POST /api/cart/lines',
    what: 'pasted rows, one bad',
    send: ({ env, buyer }) => env.request({ method: 'POST', url: '/api/cart/lines', headers: asUser(buyer), payload: { text: 'NO-SUCH-SKU 3\nALSO-NONE x' } }),
  },
  {
    operation: 'POST /api/cart/lines',
    what: 'rows by product',
    send: ({ env, buyer, productId }) =>
      env.request({ method: 'POST', url: '/api/cart/lines', headers: asUser(buyer), payload: { lines: [{ productId, quantity: 20 }] } }),
  },
  {
    operation: 'GET /api/skus',
    what: 'none match',
    send: ({ env, buyer }) => env.request({ method: 'GET', url: '/api/skus?q=NO-SUCH', headers: asUser(buyer) }),
  },
  {
    operation: 'POST /api/checkout',
    what: 'a stale total (409)',
    send: ({ env, buyer }) =>
      env.request({
        method: 'POST',
        url: '/api/checkout',
        headers: { ...asUser(buyer), 'idempotency-key': 'openapi-checkout-stale' },
        payload: { expectedTotal: 1 },
      }),
  },
  {
    operation: 'POST /api/checkout',
    what: 'one order per seller',
    send: ({ env, buyer }) =>
      env.request({
        method: 'POST',
        url: '/api/checkout',
        headers: { ...asUser(buyer), 'idempotency-key': 'openapi-checkout' },
        payload: { expectedTotal: 216, poNumber: 'PO-1' },
      }),
  },
  {
    operation: 'POST /api/checkout',
    what: 'the same key again (200)',
    send: ({ env, buyer }) =>
      env.request({
        method: 'POST',
        url: '/api/checkout',
        headers: { ...asUser(buyer), 'idempotency-key': 'openapi-checkout' },
        payload: { expectedTotal: 216, poNumber: 'PO-1' },
      }),
  },
  {
    operation: 'POST /api/order/{id}/reorder',
    what: 'the first order again',
    send: ({ env, buyer, orderId }) => env.request({ method: 'POST', url: `/api/order/${orderId}/reorder`, headers: asUser(buyer) }),
  },
  {
    operation: 'POST /api/lists',
    what: 'a list with a line',
    send: ({ env, buyer, productId }) =>
      env.request({ method: 'POST', url: '/api/lists', headers: asUser(buyer), payload: { name: 'Monthly restock', lines: [{ productId, quantity: 20 }] } }),
    keep: (world, body) => {
      world.listId = (body as { id: string }).id;
    },
  },
  {
    operation: 'POST /api/lists',
    what: 'no name (422)',
    send: ({ env, buyer }) => env.request({ method: 'POST', url: '/api/lists', headers: asUser(buyer), payload: { name: '' } }),
  },
  { operation: 'GET /api/lists', what: 'own lists', send: ({ env, buyer }) => env.request({ method: 'GET', url: '/api/lists', headers: asUser(buyer) }) },
  {
    operation: 'GET /api/lists/{id}',
    what: 'one list',
    send: ({ env, buyer, listId }) => env.request({ method: 'GET', url: `/api/lists/${listId}`, headers: asUser(buyer) }),
  },
  {
    operation: 'GET /api/lists/{id}',
    what: "someone else's (404)",
    send: ({ env, seller, listId }) => env.request({ method: 'GET', url: `/api/lists/${listId}`, headers: asUser(seller) }),
  },
  {
    operation: 'PUT /api/lists/{id}/lines/{productId}',
    what: 'set a line',
    send: ({ env, buyer, listId, productId }) =>
      env.request({ method: 'PUT', url: `/api/lists/${listId}/lines/${productId}`, headers: asUser(buyer), payload: { quantity: 40 } }),
  },
  {
    operation: 'POST /api/lists/{id}/to-cart',
    what: 'to the cart',
    send: ({ env, buyer, listId }) => env.request({ method: 'POST', url: `/api/lists/${listId}/to-cart`, headers: asUser(buyer) }),
  },
  {
    operation: 'DELETE /api/lists/{id}/lines/{productId}',
    what: 'remove a line',
    send: ({ env, buyer, listId, productId }) => env.request({ method: 'DELETE', url: `/api/lists/${listId}/lines/${productId}`, headers: asUser(buyer) }),
  },
  {
    operation: 'DELETE /api/lists/{id}',
    what: 'delete it',
    send: ({ env, buyer, listId }) => env.request({ method: 'DELETE', url: `/api/lists/${listId}`, headers: asUser(buyer) }),
  },
  {
    operation: 'GET /api/seller/dashboard',
    what: 'the last 30 days',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/seller/dashboard', headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/seller/dashboard',
    what: 'an unknown period (422)',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/seller/dashboard?period=2w', headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/seller/dashboard.csv',
    what: "the chart's figures",
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/seller/dashboard.csv?period=7d', headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/seller/orders.csv',
    what: 'a month of orders',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/seller/orders.csv?from=2026-01-01&to=2026-01-31', headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/seller/orders.csv',
    what: 'dates backwards (422)',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/seller/orders.csv?from=2026-02-01&to=2026-01-31', headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/seller/settings',
    what: 'none set',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/seller/settings', headers: asUser(seller) }),
  },
  {
    operation: 'PUT /api/seller/settings',
    what: 'a minimum',
    send: ({ env, seller }) => env.request({ method: 'PUT', url: '/api/seller/settings', headers: asUser(seller), payload: { minimumOrder: 1 } }),
  },
  {
    operation: 'GET /api/product/{id}/seller',
    what: 'seller and minimum',
    send: ({ env, productId }) => env.request({ method: 'GET', url: `/api/product/${productId}/seller` }),
  },
];

/**
 * One real request per described operation (some have more, for their other answers), in an order
 * that builds what the next needs. A new route needs a sample here: the test below says which.
 */
const SAMPLES: Sample[] = [
  { operation: 'GET /api/health', what: 'health', send: ({ env }) => env.request({ method: 'GET', url: '/api/health' }) },
  { operation: 'GET /api/me', what: 'signed out', send: ({ env }) => env.request({ method: 'GET', url: '/api/me' }) },
  { operation: 'GET /api/me', what: 'signed in', send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/me', headers: asUser(seller) }) },
  {
    operation: 'GET /api/me/sessions',
    what: 'signed in',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/me/sessions', headers: asUser(seller) }),
  },
  {
    operation: 'POST /api/me/sessions/sign-out-others',
    what: 'nothing else to end',
    send: ({ env, seller }) => env.request({ method: 'POST', url: '/api/me/sessions/sign-out-others', headers: asUser(seller), payload: {} }),
  },
  {
    operation: 'DELETE /api/me',
    what: 'wrong password',
    send: ({ env, seller }) => env.request({ method: 'DELETE', url: '/api/me', headers: asUser(seller), payload: { password: 'Not-the-password-1' } }),
  },
  {
    operation: 'POST /api/addproduct',
    what: 'a full product',
    send: ({ env, seller }) => env.request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody() }),
    keep: (world, body) => {
      world.productId = idOf(body);
    },
  },
  {
    operation: 'POST /api/addproduct',
    what: 'only the required fields',
    send: ({ env, seller }) =>
      env.request({
        method: 'POST',
        url: '/api/addproduct',
        headers: asUser(seller),
        payload: { image: '/images/products/a.webp', name: 'Bare product', mainquantity: 5, minquantity: 1, brandname: 'B', category: 'Health & Beauty' },
      }),
  },
  {
    operation: 'POST /api/addproduct',
    what: 'invalid (422)',
    send: ({ env, seller }) => env.request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: { name: '' } }),
  },
  { operation: 'GET /api/topproduct', what: 'featured', send: ({ env }) => env.request({ method: 'GET', url: '/api/topproduct' }) },
  { operation: 'GET /api/allproduct', what: 'first page of one', send: ({ env }) => env.request({ method: 'GET', url: '/api/allproduct?limit=1' }) },
  {
    operation: 'GET /api/search',
    what: 'words and filters',
    send: ({ env }) => env.request({ method: 'GET', url: '/api/search?q=kettle&brand=HomeChef&minPrice=1&sort=price_asc&limit=1' }),
  },
  { operation: 'GET /api/search', what: 'a typo', send: ({ env }) => env.request({ method: 'GET', url: '/api/search?q=kettel' }) },
  { operation: 'GET /api/search', what: 'no match', send: ({ env }) => env.request({ method: 'GET', url: '/api/search?q=zeppelin' }) },
  { operation: 'GET /api/search', what: 'invalid (422)', send: ({ env }) => env.request({ method: 'GET', url: '/api/search?sort=cheapest' }) },
  { operation: 'GET /api/search/suggest', what: 'names and categories', send: ({ env }) => env.request({ method: 'GET', url: '/api/search/suggest?q=ke' }) },
  { operation: 'GET /api/search/suggest', what: 'too short', send: ({ env }) => env.request({ method: 'GET', url: '/api/search/suggest?q=k' }) },
  { operation: 'GET /api/product/{id}', what: 'one product', send: ({ env, productId }) => env.request({ method: 'GET', url: `/api/product/${productId}` }) },
  { operation: 'GET /api/product/{id}', what: 'unknown (404)', send: ({ env }) => env.request({ method: 'GET', url: `/api/product/${UNKNOWN_ID}` }) },
  {
    operation: 'GET /api/products/{email}',
    what: 'own products',
    send: ({ env, seller }) => env.request({ method: 'GET', url: `/api/products/${encodeURIComponent(seller.email)}`, headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/products/{email}',
    what: 'own products, searched and filtered by stock',
    send: ({ env, seller }) =>
      env.request({ method: 'GET', url: `/api/products/${encodeURIComponent(seller.email)}?q=carton&stock=in_stock&limit=100`, headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/products/{email}',
    what: 'an unknown stock state (422)',
    send: ({ env, seller }) => env.request({ method: 'GET', url: `/api/products/${encodeURIComponent(seller.email)}?stock=plenty`, headers: asUser(seller) }),
  },
  {
    operation: 'PUT /api/updateproduct/{id}',
    what: 'update',
    send: ({ env, seller, productId }) =>
      env.request({ method: 'PUT', url: `/api/updateproduct/${productId}`, headers: asUser(seller), payload: validProductBody({ name: 'Renamed' }) }),
  },
  {
    operation: 'PATCH /api/products/{id}',
    what: 'stock +10',
    send: ({ env, seller, productId }) =>
      env.request({ method: 'PATCH', url: `/api/products/${productId}`, headers: asUser(seller), payload: { quantity: 10 } }),
  },
  {
    operation: 'POST /api/my/products/{id}/relist',
    what: 'relist (a listed product answers as it is)',
    send: ({ env, seller, productId }) => env.request({ method: 'POST', url: `/api/my/products/${productId}/relist`, headers: asUser(seller) }),
  },
  {
    operation: 'POST /api/my/products/{id}/relist',
    what: 'unknown (404)',
    send: ({ env, seller }) => env.request({ method: 'POST', url: `/api/my/products/${UNKNOWN_ID}/relist`, headers: asUser(seller) }),
  },
  {
    operation: 'POST /api/order',
    what: 'a purchase',
    send: ({ env, buyer, productId }) =>
      env.request({
        method: 'POST',
        url: '/api/order',
        headers: { ...asUser(buyer), 'idempotency-key': 'openapi-test-order' },
        payload: { productId, quantity: 20 },
      }),
    keep: (world, body) => {
      world.orderId = idOf(body);
    },
  },
  {
    operation: 'POST /api/order',
    what: 'the same key again (200)',
    send: ({ env, buyer, productId }) =>
      env.request({
        method: 'POST',
        url: '/api/order',
        headers: { ...asUser(buyer), 'idempotency-key': 'openapi-test-order' },
        payload: { productId, quantity: 20 },
      }),
  },
  {
    operation: 'POST /api/order',
    what: 'below the MOQ (422)',
    send: ({ env, buyer, productId }) => env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity: 1 } }),
  },
  {
    operation: 'GET /api/orders/{email}',
    what: 'own orders',
    send: ({ env, buyer }) => env.request({ method: 'GET', url: `/api/orders/${encodeURIComponent(buyer.email)}`, headers: asUser(buyer) }),
  },
  {
    operation: 'POST /api/order',
    what: 'a purchase shipped to a new address',
    send: ({ env, buyer, productId }) =>
      env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity: 20, shipTo: SAMPLE_SHIP_TO } }),
    keep: (world, body) => {
      world.saleId = idOf(body);
    },
  },
  {
    operation: 'POST /api/order',
    what: 'a purchase to decline',
    send: ({ env, buyer, productId }) => env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity: 20 } }),
    keep: (world, body) => {
      world.declineId = idOf(body);
    },
  },
  {
    operation: 'POST /api/order',
    what: 'a purchase to accept with others',
    send: ({ env, buyer, productId }) => env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity: 20 } }),
    keep: (world, body) => {
      world.bulkId = idOf(body);
    },
  },
  {
    operation: 'GET /api/orders/{email}',
    what: 'cancelled ones (none)',
    send: ({ env, buyer }) => env.request({ method: 'GET', url: `/api/orders/${encodeURIComponent(buyer.email)}?status=cancelled`, headers: asUser(buyer) }),
  },
  {
    operation: 'PUT /api/account/ship-to',
    what: 'save',
    send: ({ env, buyer }) => env.request({ method: 'PUT', url: '/api/account/ship-to', headers: asUser(buyer), payload: SAMPLE_SHIP_TO }),
  },
  {
    operation: 'PUT /api/account/ship-to',
    what: 'invalid (422)',
    send: ({ env, buyer }) =>
      env.request({ method: 'PUT', url: '/api/account/ship-to', headers: asUser(buyer), payload: { ...SAMPLE_SHIP_TO, country: 'XX' } }),
  },
  {
    operation: 'GET /api/account/ship-to',
    what: 'saved',
    send: ({ env, buyer }) => env.request({ method: 'GET', url: '/api/account/ship-to', headers: asUser(buyer) }),
  },
  {
    operation: 'GET /api/order/{id}',
    what: 'own order',
    send: ({ env, buyer, saleId }) => env.request({ method: 'GET', url: `/api/order/${saleId}`, headers: asUser(buyer) }),
  },
  {
    operation: 'GET /api/order/{id}',
    what: "someone else's (404)",
    send: ({ env, seller, saleId }) => env.request({ method: 'GET', url: `/api/order/${saleId}`, headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/sales',
    what: 'the desk',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/sales?status=placed&limit=1', headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/sales/counts',
    what: 'counts',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/sales/counts', headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/sales/{id}',
    what: 'one sale',
    send: ({ env, seller, saleId }) => env.request({ method: 'GET', url: `/api/sales/${saleId}`, headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/product/{id}/open-orders',
    what: 'open orders',
    send: ({ env, seller, productId }) => env.request({ method: 'GET', url: `/api/product/${productId}/open-orders`, headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/notifications',
    what: "the seller's",
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/notifications?limit=1', headers: asUser(seller) }),
    keep: (world, body) => {
      world.notificationId = (body as Array<{ _id: string }>)[0]?._id ?? '';
    },
  },
  {
    operation: 'GET /api/notifications/unread-count',
    what: 'count',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/notifications/unread-count', headers: asUser(seller) }),
  },
  {
    operation: 'POST /api/notifications/{id}/read',
    what: 'mark read',
    send: ({ env, seller, notificationId }) => env.request({ method: 'POST', url: `/api/notifications/${notificationId}/read`, headers: asUser(seller) }),
  },
  {
    operation: 'POST /api/notifications/read-all',
    what: 'mark all',
    send: ({ env, seller }) => env.request({ method: 'POST', url: '/api/notifications/read-all', headers: asUser(seller) }),
  },
  {
    operation: 'POST /api/sales/{id}/accept',
    what: 'accept',
    send: ({ env, seller, saleId }) => env.request({ method: 'POST', url: `/api/sales/${saleId}/accept`, headers: asUser(seller), payload: {} }),
  },
  {
    operation: 'POST /api/sales/{id}/accept',
    what: 'again (409)',
    send: ({ env, seller, saleId }) => env.request({ method: 'POST', url: `/api/sales/${saleId}/accept`, headers: asUser(seller), payload: {} }),
  },
  {
    operation: 'POST /api/sales/accept',
    what: 'one accepted, one unknown',
    send: ({ env, seller, bulkId }) =>
      env.request({ method: 'POST', url: '/api/sales/accept', headers: asUser(seller), payload: { ids: [bulkId, UNKNOWN_ID] } }),
  },
  {
    operation: 'POST /api/sales/accept',
    what: 'none chosen (422)',
    send: ({ env, seller }) => env.request({ method: 'POST', url: '/api/sales/accept', headers: asUser(seller), payload: { ids: [] } }),
  },
  {
    operation: 'POST /api/sales/{id}/decline',
    what: 'decline',
    send: ({ env, seller, declineId }) =>
      env.request({ method: 'POST', url: `/api/sales/${declineId}/decline`, headers: asUser(seller), payload: { reason: 'Discontinued' } }),
  },
  {
    operation: 'POST /api/sales/{id}/ship',
    what: 'ship',
    send: ({ env, seller, saleId }) =>
      env.request({ method: 'POST', url: `/api/sales/${saleId}/ship`, headers: asUser(seller), payload: { carrier: 'DHL', tracking: 'JD0142' } }),
  },
  {
    operation: 'POST /api/order/{id}/received',
    what: 'received',
    send: ({ env, buyer, saleId }) => env.request({ method: 'POST', url: `/api/order/${saleId}/received`, headers: asUser(buyer) }),
  },
  {
    operation: 'POST /api/sales/{id}/deliver',
    what: 'already delivered (409)',
    send: ({ env, seller, saleId }) => env.request({ method: 'POST', url: `/api/sales/${saleId}/deliver`, headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/business',
    what: 'no profile yet',
    send: ({ env, buyer }) => env.request({ method: 'GET', url: '/api/business', headers: asUser(buyer) }),
  },
  {
    operation: 'PUT /api/business',
    what: 'save',
    send: ({ env, buyer }) => env.request({ method: 'PUT', url: '/api/business', headers: asUser(buyer), payload: validBusinessBody() }),
  },
  {
    operation: 'PUT /api/business',
    what: 'invalid (422)',
    send: ({ env, buyer }) => env.request({ method: 'PUT', url: '/api/business', headers: asUser(buyer), payload: {} }),
  },
  { operation: 'POST /api/business/document', what: 'a PDF', send: (world) => uploadPermit(world, tinyPdf()) },
  { operation: 'POST /api/business/document', what: 'HTML (415)', send: (world) => uploadPermit(world, Buffer.from('<html></html>')) },
  { operation: 'GET /api/business', what: 'pending', send: ({ env, buyer }) => env.request({ method: 'GET', url: '/api/business', headers: asUser(buyer) }) },
  {
    operation: 'GET /api/business/document',
    what: 'own document',
    send: ({ env, buyer }) => env.request({ method: 'GET', url: '/api/business/document', headers: asUser(buyer) }),
  },
  {
    operation: 'GET /api/business/document',
    what: 'none uploaded (404)',
    send: ({ env, seller }) => env.request({ method: 'GET', url: '/api/business/document', headers: asUser(seller) }),
  },
  {
    operation: 'GET /api/admin/verifications',
    what: 'the queue',
    send: ({ env, operator }) => env.request({ method: 'GET', url: '/api/admin/verifications?status=pending&limit=5', headers: asUser(operator) }),
    keep: (world, body) => {
      const first = (body as Array<{ _id: string; revision: string }>)[0];
      world.verificationId = first?._id ?? '';
      world.revision = first?.revision ?? '';
    },
  },
  {
    operation: 'GET /api/admin/verifications',
    what: 'not an operator (404)',
    send: ({ env, buyer }) => env.request({ method: 'GET', url: '/api/admin/verifications', headers: asUser(buyer) }),
  },
  {
    operation: 'GET /api/admin/verifications/{id}/document',
    what: 'the document',
    send: ({ env, operator, verificationId }) =>
      env.request({ method: 'GET', url: `/api/admin/verifications/${verificationId}/document`, headers: asUser(operator) }),
  },
  {
    operation: 'GET /api/admin/verifications/{id}/preview',
    what: 'the document inline',
    send: ({ env, operator, verificationId }) =>
      env.request({ method: 'GET', url: `/api/admin/verifications/${verificationId}/preview`, headers: asUser(operator) }),
  },
  {
    operation: 'POST /api/admin/verifications/{id}/reject',
    what: 'reject',
    send: ({ env, operator, verificationId, revision }) =>
      env.request({
        method: 'POST',
        url: `/api/admin/verifications/${verificationId}/reject`,
        headers: asUser(operator),
        payload: { reason: 'Blurry scan', revision },
      }),
  },
  { operation: 'POST /api/business/document', what: 'a new PDF', send: (world) => uploadPermit(world, tinyPdf()) },
  {
    operation: 'POST /api/admin/verifications/{id}/approve',
    what: 'the revision before the new PDF (409)',
    send: ({ env, operator, verificationId, revision }) =>
      env.request({ method: 'POST', url: `/api/admin/verifications/${verificationId}/approve`, headers: asUser(operator), payload: { revision } }),
  },
  {
    operation: 'GET /api/admin/verifications',
    what: 'the queue again',
    send: ({ env, operator }) => env.request({ method: 'GET', url: '/api/admin/verifications?status=pending&limit=5', headers: asUser(operator) }),
    keep: (world, body) => {
      world.revision = (body as Array<{ _id: string; revision: string }>).find((v) => v._id === world.verificationId)?.revision ?? '';
    },
  },
  {
    operation: 'POST /api/admin/verifications/{id}/approve',
    what: 'approve',
    send: ({ env, operator, verificationId, revision }) =>
      env.request({ method: 'POST', url: `/api/admin/verifications/${verificationId}/approve`, headers: asUser(operator), payload: { revision } }),
  },
  {
    operation: 'POST /api/admin/verifications/{id}/approve',
    what: 'already decided (409)',
    send: ({ env, operator, verificationId, revision }) =>
      env.request({ method: 'POST', url: `/api/admin/verifications/${verificationId}/approve`, headers: asUser(operator), payload: { revision } }),
  },
  {
    operation: 'GET /api/admin/audit',
    what: 'decisions',
    send: ({ env, operator }) => env.request({ method: 'GET', url: '/api/admin/audit', headers: asUser(operator) }),
  },
  ...CART_SAMPLES,
  ...CATALOG_SAMPLES,
  {
    operation: 'DELETE /api/order/{id}',
    what: 'cancel',
    send: ({ env, buyer, orderId }) => env.request({ method: 'DELETE', url: `/api/order/${orderId}`, headers: asUser(buyer) }),
  },
  {
    operation: 'DELETE /api/product/{id}',
    what: 'delete',
    send: ({ env, seller, productId }) => env.request({ method: 'DELETE', url: `/api/product/${productId}`, headers: asUser(seller) }),
  },
  {
    operation: 'DELETE /api/product/{id}',
    what: 'signed out (401)',
    send: ({ env, productId }) => env.request({ method: 'DELETE', url: `/api/product/${productId}` }),
  },
];

/** The schema the description gives for this answer: its own status, else the 4XX / 5XX range. */
function describedSchema(doc: OpenApiDocument, operation: string, status: number): object | undefined {
  const [method = '', path = ''] = operation.split(' ');
  const responses = doc.paths[path]?.[method.toLowerCase()]?.responses ?? {};
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
  return response?.content?.['application/json']?.schema;
}

/** A file answer (a download) is described as binary content, not JSON. */
function describesDownload(doc: OpenApiDocument, operation: string, status: number): boolean {
  const [method = '', path = ''] = operation.split(' ');
  return Boolean(doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)]?.content?.['application/octet-stream']?.schema);
}

describe('OpenAPI description (GET /api/openapi.json)', () => {
  let env: TestEnv;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    env = await createTestEnv('pglite', { ADMIN_EMAILS: OPENAPI_OPERATOR });
    const response = await env.request({ method: 'GET', url: OPENAPI_PATH });
    expect(response.statusCode).toBe(200);
    doc = response.json() as OpenApiDocument;
  });
  afterAll(async () => {
    await env?.close();
  });

  it('is OpenAPI 3.1 and describes exactly the API routes the app registered', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(describedOperations(doc)).toEqual(registeredOperations(env));
  });

  it('describes a JSON answer for every success of every operation', () => {
    const missing = describedOperations(doc).filter((operation) => {
      const [method = '', path = ''] = operation.split(' ');
      const responses = doc.paths[path]?.[method.toLowerCase()]?.responses ?? {};
      const successes = Object.keys(responses).filter((status) => /^2\d\d$/.test(status));
      return (
        successes.length === 0 ||
        successes.some(
          (status) => !responses[status]?.content?.['application/json']?.schema && !responses[status]?.content?.['application/octet-stream']?.schema,
        )
      );
    });
    expect(missing, 'give these routes a response schema (lib/route-schema.ts routeContract)').toEqual([]);
  });

  it('has a sample request in this test for every described operation', () => {
    const sampled = new Set(SAMPLES.map((sample) => sample.operation));
    const unsampled = describedOperations(doc).filter((operation) => !sampled.has(operation));
    expect(unsampled, 'add a request for these to SAMPLES in test/api/openapi.test.ts').toEqual([]);
  });

  it('gets real answers that match the described status and schema', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const seller = await signUpUser(env, { name: 'OpenAPI Seller' });
    const buyer = await signUpUser(env, { name: 'OpenAPI Buyer', email: `buyer-${randomUUID()}@example.com` });
    const operator = await signUpOperator(env, OPENAPI_OPERATOR, 'OpenAPI Operator');
    const world: World = {
      env,
      seller,
      buyer,
      productId: '',
      orderId: '',
      saleId: '',
      declineId: '',
      bulkId: '',
      notificationId: '',
      operator,
      verificationId: '',
      revision: '',
      listId: '',
      importId: '',
    };
    const mismatches: string[] = [];
    for (const sample of SAMPLES) {
      const response = await sample.send(world);
      const label = `${sample.operation} (${sample.what}) → ${response.statusCode}`;
      if (!String(response.headers['content-type']).startsWith('application/json')) {
        if (!describesDownload(doc, sample.operation, response.statusCode)) mismatches.push(`${label}: a file answer not described as one`);
        continue;
      }
      const schema = describedSchema(doc, sample.operation, response.statusCode);
      if (!schema) {
        mismatches.push(`${label}: status not described`);
        continue;
      }
      const body: unknown = response.json();
      const validate = ajv.compile(schema);
      if (!validate(body)) mismatches.push(`${label}: ${ajv.errorsText(validate.errors)}`);
      sample.keep?.(world, body);
    }
    expect(mismatches).toEqual([]);
  });
});

type Operation = {
  parameters?: Array<{ name: string; in: string; schema?: { pattern?: string } }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchemaNode }> };
};
type JsonSchemaNode = { properties?: Record<string, JsonSchemaNode>; pattern?: string; enum?: unknown[]; items?: JsonSchemaNode };
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** `/api/product/{id}` → a regex matching concrete paths of it. */
function templateRegex(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
}

function operationOf(doc: OpenApiDocument, method: string, path: string): Operation {
  const operation = (doc.paths[path] as Record<string, Operation> | undefined)?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not described`);
  return operation;
}

function jsonBodyOf(doc: OpenApiDocument, method: string, path: string): JsonSchemaNode {
  const schema = operationOf(doc, method, path).requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method.toUpperCase()} ${path} has no JSON body described`);
  return schema;
}

describe('OpenAPI description: the rules it states are the rules the server keeps', () => {
  let env: TestEnv;
  let doc: OpenApiDocument;
  let operator: TestUser;
  let buyer: TestUser;

  beforeAll(async () => {
    env = await createTestEnv('pglite', { ADMIN_EMAILS: OPENAPI_OPERATOR });
    doc = (await env.request({ method: 'GET', url: OPENAPI_PATH })).json() as OpenApiDocument;
    operator = await signUpOperator(env, OPENAPI_OPERATOR, 'Rules Operator');
    buyer = await signUpUser(env, { name: 'Rules Buyer' });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('answers 405 with Allow for every method a described path does not have, as the description says', async () => {
    expect((doc as unknown as { info: { description: string } }).info.description).toContain('**405** with an `Allow` header');
    const paths = Object.keys(doc.paths);
    const checked: string[] = [];
    for (const path of paths) {
      const concrete = path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      // Every described path this concrete path also matches (e.g. GET /api/products/{email} and PATCH /api/products/{id}).
      const described = new Set(
        paths.filter((other) => templateRegex(other).test(concrete)).flatMap((other) => Object.keys(doc.paths[other]!).map((m) => m.toUpperCase())),
      );
      const allow = [
        ...HTTP_METHODS.filter((m) => m === 'GET' && described.has('GET')).flatMap(() => ['GET', 'HEAD']),
        ...HTTP_METHODS.filter((m) => m !== 'GET' && described.has(m)),
      ].join(', ');
      for (const method of HTTP_METHODS.filter((m) => !described.has(m))) {
        const response = await env.request({ method, url: concrete, headers: asUser(operator), ...(method === 'GET' ? {} : { payload: {} }) });
        expect(response.statusCode, `${method} ${path}`).toBe(405);
        expect(response.headers.allow, `${method} ${path}`).toBe(allow);
        expect(response.json(), `${method} ${path}`).toEqual({
          error: { code: 'METHOD_NOT_ALLOWED', title: 'Method not allowed', message: `${method} is not a method of this path; it answers ${allow}.` },
        });
        checked.push(`${method} ${path}`);
      }
    }
    expect(checked).toContain('PUT /api/topproduct');
    expect(checked).toContain('DELETE /api/admin/audit');
    // To anyone but an operator the operators' paths are not there, whatever the method.
    for (const headers of [asUser(buyer), {}]) {
      const hidden = await env.request({ method: 'DELETE', url: '/api/admin/audit', headers });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.headers.allow).toBeUndefined();
    }
    // A path no route has is still a 404.
    expect((await env.request({ method: 'PUT', url: '/api/nothing-here', payload: {} })).statusCode).toBe(404);
  });

  it('states the cursor format on every list, and a cursor outside it or never issued is a 422 "Invalid cursor"', async () => {
    const lists = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, Operation>)
        .filter(([, operation]) => operation.parameters?.some((p) => p.in === 'query' && p.name === 'cursor'))
        .map(([method, operation]) => ({ method, path, operation })),
    );
    expect(lists.map((l) => l.path)).toEqual(
      expect.arrayContaining([
        '/api/allproduct',
        '/api/search',
        '/api/orders/{email}',
        '/api/sales',
        '/api/notifications',
        '/api/admin/verifications',
        '/api/admin/audit',
      ]),
    );
    for (const { path, operation } of lists) {
      expect(operation.parameters?.find((p) => p.name === 'cursor')?.schema?.pattern, path).toBe(CURSOR_PATTERN);
      // A list under an id (an import's changes) is asked about an id nobody has: the cursor is judged first.
      const url = path.replace('{email}', encodeURIComponent(operator.email)).replace('{id}', '00000000-0000-4000-8000-000000000000');
      for (const cursor of ['not*a*cursor', 'x'.repeat(81), 'zzzz']) {
        expect(new RegExp(CURSOR_PATTERN).test(cursor), cursor).toBe(cursor === 'zzzz');
        const response = await env.request({ method: 'GET', url: `${url}?cursor=${encodeURIComponent(cursor)}`, headers: asUser(operator) });
        expect(response.statusCode, `${path} ${cursor}`).toBe(422);
        expect(response.json().error, `${path} ${cursor}`).toMatchObject({ title: 'Invalid cursor', fieldErrors: { cursor: ['Invalid cursor'] } });
      }
    }
  });

  it('states the image URL rule as a pattern every URL the server accepts matches, and the server refuses what it excludes', async () => {
    const body = jsonBodyOf(doc, 'post', '/api/addproduct');
    for (const field of ['image', 'image2', 'image3']) expect(body.properties?.[field]?.pattern, field).toBe(IMAGE_URL_PATTERN);
    expect(jsonBodyOf(doc, 'put', '/api/updateproduct/{id}').properties?.image?.pattern).toBe(IMAGE_URL_PATTERN);
    const pattern = new RegExp(IMAGE_URL_PATTERN);
    const urlish = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.webUrl({ validSchemes: ['https', 'http'], withQueryParameters: true, withFragments: true }),
      fc
        .tuple(
          fc.constantFrom('https://', 'HTTPS://', 'https:', 'https:/', '/', '//', 'javascript:', 'data:', ' https://'),
          fc.string({ unit: 'binary', maxLength: 30 }),
        )
        .map(([a, b]) => a + b),
    );
    // The rule only speaks of URLs the server accepts: count them, or a sample of refusals would prove nothing.
    let accepted = 0;
    fc.assert(
      fc.property(urlish, (value) => {
        if (!isSafeImageUrl(value)) return;
        accepted += 1;
        expect(pattern.test(value), JSON.stringify(value)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(300);
    for (const image of [
      'javascript:alert(1)',
      '//evil.example/x.png',
      'http://example.com/x.png',
      'https:example.com/x.png',
      'https://exa\u0001mple.com/x.png',
    ]) {
      expect(pattern.test(image), image).toBe(false);
      const response = await env.request({ method: 'POST', url: '/api/addproduct', headers: asUser(buyer), payload: validProductBody({ image }) });
      expect(response.statusCode, image).toBe(422);
      expect(Object.keys(response.json().error.fieldErrors), image).toEqual(['image']);
    }
  });

  it('states the ISO 3166-1 country codes an address takes, and the server refuses any other', async () => {
    const address = jsonBodyOf(doc, 'put', '/api/account/ship-to');
    expect(address.properties?.country?.enum).toEqual([...COUNTRIES]);
    expect(jsonBodyOf(doc, 'put', '/api/business').properties?.address?.properties?.country?.enum).toEqual([...COUNTRIES]);
    const shipTo = { company: 'Rules Ltd', line1: '1 Rule Road', city: 'Leeds', region: 'West Yorkshire', postalCode: 'LS1 1AA', phone: '+44 113 496 0000' };
    for (const country of ['XK', 'UK', 'EU', 'ZZ']) {
      expect(COUNTRIES.has(country)).toBe(false);
      const response = await env.request({ method: 'PUT', url: '/api/account/ship-to', headers: asUser(buyer), payload: { ...shipTo, country } });
      expect(response.statusCode, country).toBe(422);
    }
    expect((await env.request({ method: 'PUT', url: '/api/account/ship-to', headers: asUser(buyer), payload: { ...shipTo, country: 'GB' } })).statusCode).toBe(
      200,
    );
  });
});

describe("OpenAPI description: the 429s it states are the server's (RATE_LIMIT on)", () => {
  let env: TestEnv;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    env = await createTestEnv('pglite', { RATE_LIMIT: 'true' });
    doc = (await env.request({ method: 'GET', url: OPENAPI_PATH })).json() as OpenApiDocument;
  });
  afterAll(async () => {
    await env?.close();
  });

  /** Sends `send` until it answers 429 (at most `limit` + 1 times) and checks that answer against the description. */
  async function expectDescribed429(operation: string, limit: number, send: () => Promise<LightMyRequestResponse>): Promise<void> {
    const [method = '', path = ''] = operation.split(' ');
    const described = (doc.paths[path]?.[method.toLowerCase()]?.responses ?? {}) as Record<
      string,
      { headers?: Record<string, unknown>; content?: Record<string, { schema?: object }> }
    >;
    expect(described['429']?.headers, operation).toHaveProperty('retry-after');
    let response: LightMyRequestResponse | null = null;
    for (let n = 0; n <= limit && response?.statusCode !== 429; n++) response = await send();
    expect(response?.statusCode, operation).toBe(429);
    expect(Number(response?.headers['retry-after'])).toBeGreaterThan(0);
    const validate = new Ajv2020({ strict: false }).compile(described['429']!.content!['application/json']!.schema!);
    expect(validate(response!.json()), operation).toBe(true);
  }

  it('describes 429 with Retry-After on order creation, checkout, document uploads and CSV downloads, and the server answers it as described', async () => {
    const seller = await signUpUser(env, { name: 'Limited Seller' });
    const buyer = await signUpUser(env, { name: 'Limited Buyer' });
    const cartBuyer = await signUpUser(env, { name: 'Limited Cart Buyer' });
    const listed = await env.request({
      method: 'POST',
      url: '/api/addproduct',
      headers: asUser(seller),
      payload: validProductBody({ mainquantity: 100_000, minquantity: 1 }),
    });
    const productId = idOf(listed.json());
    await expectDescribed429('POST /api/order', ORDERS_PER_USER_PER_MINUTE, () =>
      env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity: 1 } }),
    );
    // An empty cart is refused, but each attempt counts like a placed checkout.
    await expectDescribed429('POST /api/checkout', ORDERS_PER_USER_PER_MINUTE, () =>
      env.request({
        method: 'POST',
        url: '/api/checkout',
        headers: { ...asUser(cartBuyer), 'idempotency-key': randomUUID() },
        payload: { expectedTotal: '0.00' },
      }),
    );
    await env.request({ method: 'PUT', url: '/api/business', headers: asUser(buyer), payload: validBusinessBody() });
    await expectDescribed429('POST /api/business/document', DOCUMENT_UPLOADS_PER_HOUR, () => uploadPermit({ env, buyer } as World, tinyPdf()));
    await expectDescribed429('GET /api/my/catalog.csv', EXPORTS_PER_USER_PER_MINUTE, () =>
      env.request({ method: 'GET', url: '/api/my/catalog.csv', headers: asUser(seller) }),
    );
  });
});
