import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { session } from '../../../src/db/schema/auth.ts';
import { businessDocuments, businessProfiles, verificationAudit } from '../../../src/db/schema/business.ts';
import { products } from '../../../src/db/schema/catalog.ts';
import { orders } from '../../../src/db/schema/orders.ts';
import { emailOutbox, notifications } from '../../../src/db/schema/notifications.ts';
import { cartLines, orderLists } from '../../../src/db/schema/cart.ts';
import { catalogImportRows, catalogImports } from '../../../src/db/schema/catalog-imports.ts';
import { multipartBody, tinyPdf, validBusinessBody } from '../../helpers/business.ts';
import type { TestEnv } from '../../helpers/test-app.ts';
import type { TestUser } from '../../helpers/accounts.ts';
import { seedProduct, validProductBody } from '../../helpers/products.ts';

/**
 * Every /api route the server registers, with the answer each kind of caller must get. The
 * authorization matrix sends each as written; the respelling tests send each under other spellings.
 */

export interface Fixture {
  owner: TestUser;
  other: TestUser;
  /** A product listed by the owner. */
  productId: string;
  /** A live order the owner placed (on a product of someone else). */
  orderId: string;
  /** A placed order of the owner's product (the owner is its seller). */
  saleId: string;
  /** The owner's notification of that sale. */
  notificationId: string;
  /** A second session of the owner, made for this case only (so revoking it harms no other case). */
  spareOwnerToken: string;
  /** The owner's business profile, pending review with a document. */
  verificationId: string;
  /** A product of another seller that is in the owner's cart. */
  cartProductId: string;
  /** The owner's saved list, holding that product. */
  listId: string;
  /** The owner's catalog import, ready to apply (one row, unchanged). */
  importId: string;
}

export type Credentials = Record<string, string>;

export interface Caller {
  label: string;
  actor: 'signedOut' | 'other' | 'owner';
  headers(f: Fixture): Credentials;
}

/** Signed out means any of: nothing, a forged bearer token, a forged session cookie. */
export const CALLERS: Caller[] = [
  { label: 'no credentials', actor: 'signedOut', headers: () => ({}) },
  { label: 'a forged bearer token', actor: 'signedOut', headers: () => ({ authorization: `Bearer ${randomBytes(24).toString('base64url')}` }) },
  {
    label: 'a forged session cookie',
    actor: 'signedOut',
    headers: () => ({ cookie: `better-auth.session_token=${randomBytes(24).toString('base64url')}.c2lnbmF0dXJl` }),
  },
  { label: "another user's cookie", actor: 'other', headers: (f) => ({ cookie: f.other.cookie }) },
  { label: "another user's bearer token", actor: 'other', headers: (f) => ({ authorization: `Bearer ${f.other.token}` }) },
  // The owner goes last: a permitted write may consume the fixture (a delete, a cancel).
  { label: "the owner's cookie", actor: 'owner', headers: (f) => ({ cookie: f.owner.cookie }) },
];

export interface RouteCase {
  route: string;
  request(f: Fixture): InjectOptions;
  expected: { signedOut: number; other: number; owner: number };
  /** Answers that must not change the database even though they succeed (reads, no-op writes). */
  readOnly?: { other?: boolean; owner?: boolean };
  /** Extra checks on an answer, e.g. that another user's read does not leak the owner's data. */
  check?(f: Fixture, actor: Caller['actor'], response: LightMyRequestResponse): void;
}

const enc = encodeURIComponent;

const TEST_SHIP_TO_BODY = {
  company: 'Matrix Ltd',
  line1: '2 Grid Lane',
  city: 'Leeds',
  region: 'West Yorkshire',
  postalCode: 'LS1 4AP',
  country: 'GB',
  phone: '+44 113 496 0000',
};

/** What the owner's stored permit says: no other caller's answer may contain it. */
export const OWNER_DOCUMENT_TEXT = 'owner-only-permit-bytes';

/** /api/admin/… is operators' only (none of the callers is one): the 404 of a route that is not there. */
function adminRoute(route: string, request: RouteCase['request']): RouteCase {
  return {
    route,
    request,
    expected: { signedOut: 404, other: 404, owner: 404 },
    readOnly: { other: true, owner: true },
    check(_f, _actor, response) {
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', title: 'Not found', message: 'No such API route.' } });
    },
  };
}

/** Business verification (docs/decisions/014-business-verification.md). */
const BUSINESS_ROUTES: RouteCase[] = [
  {
    route: 'GET /api/business',
    request: () => ({ method: 'GET', url: '/api/business' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
    check(_f, actor, response) {
      const status = (response.json() as { status?: string }).status;
      if (actor === 'other') expect(status).toBe('none');
      if (actor === 'owner') expect(status).toBe('pending');
    },
  },
  {
    route: 'PUT /api/business',
    request: () => ({ method: 'PUT', url: '/api/business', payload: validBusinessBody({ legalName: `Matrix ${randomUUID()}` }) }),
    expected: { signedOut: 401, other: 200, owner: 200 },
  },
  {
    route: 'POST /api/business/document',
    request: () => {
      const body = multipartBody(tinyPdf());
      return { method: 'POST', url: '/api/business/document', headers: body.headers, payload: body.payload };
    },
    // Another user has no business details yet: the upload is refused (409) and nothing is stored.
    expected: { signedOut: 401, other: 409, owner: 200 },
  },
  {
    route: 'GET /api/business/document',
    request: () => ({ method: 'GET', url: '/api/business/document' }),
    expected: { signedOut: 401, other: 404, owner: 200 },
    readOnly: { owner: true },
    check(_f, actor, response) {
      if (actor === 'owner') expect(response.body).toContain(OWNER_DOCUMENT_TEXT);
      else expect(response.body).not.toContain(OWNER_DOCUMENT_TEXT);
    },
  },
  adminRoute('GET /api/admin/verifications', () => ({ method: 'GET', url: '/api/admin/verifications?status=pending' })),
  adminRoute('GET /api/admin/verifications/{id}/document', (f) => ({ method: 'GET', url: `/api/admin/verifications/${f.verificationId}/document` })),
  adminRoute('GET /api/admin/verifications/{id}/preview', (f) => ({ method: 'GET', url: `/api/admin/verifications/${f.verificationId}/preview` })),
  adminRoute('POST /api/admin/verifications/{id}/approve', (f) => ({ method: 'POST', url: `/api/admin/verifications/${f.verificationId}/approve` })),
  adminRoute('POST /api/admin/verifications/{id}/reject', (f) => ({
    method: 'POST',
    url: `/api/admin/verifications/${f.verificationId}/reject`,
    payload: { reason: 'No' },
  })),
  adminRoute('GET /api/admin/audit', () => ({ method: 'GET', url: '/api/admin/audit' })),
  adminRoute('GET /api/admin/no-such-route', () => ({ method: 'GET', url: '/api/admin/no-such-route' })),
];

/** A public read, the same for every caller, that changes nothing. */
function publicRead(route: string, url: string, status = 200): RouteCase {
  return {
    route,
    request: () => ({ method: 'GET', url }),
    expected: { signedOut: status, other: status, owner: status },
    readOnly: { other: true, owner: true },
  };
}

/** The API description and its reference page (plugins/openapi.ts). */
const API_REFERENCE_ROUTES: RouteCase[] = [
  publicRead('GET /api/openapi.json', '/api/openapi.json'),
  publicRead('GET /api/docs/', '/api/docs/'),
  publicRead('GET /api/docs/json', '/api/docs/json'),
  publicRead('GET /api/docs/yaml', '/api/docs/yaml'),
  publicRead('GET /api/docs/static/index.html', '/api/docs/static/index.html', 302),
  publicRead('GET /api/docs/static/swagger-initializer.js', '/api/docs/static/swagger-initializer.js'),
  publicRead('GET /api/docs/static/*', '/api/docs/static/swagger-ui.css'),
];

/** The cart, checkout, reorder, saved lists and seller settings (docs/decisions/017-cart-and-checkout.md). */
const CART_ROUTES: RouteCase[] = [
  {
    route: 'GET /api/cart',
    request: () => ({ method: 'GET', url: '/api/cart' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
    check(f, actor, response) {
      if (actor === 'owner') expect((response.json() as { lines: Array<{ productId: string }> }).lines.map((l) => l.productId)).toContain(f.cartProductId);
      else expect(response.body).not.toContain(f.cartProductId);
    },
  },
  {
    route: 'PUT /api/cart/lines/{productId}',
    request: (f) => ({ method: 'PUT', url: `/api/cart/lines/${f.productId}`, payload: { quantity: 10 } }),
    // The fixture's product is the owner's own: buying it is refused as in Buy Now.
    expected: { signedOut: 401, other: 200, owner: 403 },
  },
  {
    route: 'DELETE /api/cart/lines/{productId}',
    request: (f) => ({ method: 'DELETE', url: `/api/cart/lines/${f.cartProductId}` }),
    // Another user's cart does not hold the line: removing it from theirs finds nothing.
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'POST /api/cart/lines',
    request: (f) => ({ method: 'POST', url: '/api/cart/lines', payload: { lines: [{ productId: f.productId, quantity: 10 }] } }),
    // The row answers "your own product" to the owner, who adds nothing.
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { owner: true },
    check(_f, actor, response) {
      if (actor === 'other') expect(response.json()).toMatchObject({ results: [{ status: 'added' }] });
      if (actor === 'owner') expect(response.json()).toMatchObject({ results: [{ status: 'error', message: 'You cannot buy your own product.' }] });
    },
  },
  {
    route: 'GET /api/skus',
    request: () => ({ method: 'GET', url: '/api/skus?q=a' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'POST /api/checkout',
    // A PO number past 40 characters: each signed-in caller reaches their own checkout and is refused there.
    request: () => ({
      method: 'POST',
      url: '/api/checkout',
      headers: { 'idempotency-key': randomUUID() },
      payload: { expectedTotal: 1, poNumber: 'P'.repeat(41) },
    }),
    expected: { signedOut: 401, other: 422, owner: 422 },
  },
  {
    route: 'GET /api/lists',
    request: () => ({ method: 'GET', url: '/api/lists' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
    check(f, actor, response) {
      if (actor === 'owner') expect((response.json() as Array<{ id: string }>).map((l) => l.id)).toContain(f.listId);
      else expect(response.body).not.toContain(f.listId);
    },
  },
  {
    route: 'POST /api/lists',
    request: () => ({ method: 'POST', url: '/api/lists', payload: { name: 'Matrix list' } }),
    expected: { signedOut: 401, other: 201, owner: 201 },
  },
  {
    route: 'GET /api/lists/{id}',
    request: (f) => ({ method: 'GET', url: `/api/lists/${f.listId}` }),
    // Another buyer's list looks exactly like an unknown one.
    expected: { signedOut: 401, other: 404, owner: 200 },
    readOnly: { owner: true },
  },
  {
    route: 'PUT /api/lists/{id}/lines/{productId}',
    request: (f) => ({ method: 'PUT', url: `/api/lists/${f.listId}/lines/${f.cartProductId}`, payload: { quantity: 20 } }),
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'DELETE /api/lists/{id}/lines/{productId}',
    request: (f) => ({ method: 'DELETE', url: `/api/lists/${f.listId}/lines/${f.cartProductId}` }),
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'POST /api/lists/{id}/to-cart',
    request: (f) => ({ method: 'POST', url: `/api/lists/${f.listId}/to-cart` }),
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'DELETE /api/lists/{id}',
    request: (f) => ({ method: 'DELETE', url: `/api/lists/${f.listId}` }),
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'POST /api/order/{id}/reorder',
    request: (f) => ({ method: 'POST', url: `/api/order/${f.orderId}/reorder` }),
    // Another buyer's order looks exactly like an unknown one.
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'GET /api/seller/settings',
    request: () => ({ method: 'GET', url: '/api/seller/settings' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'GET /api/seller/dashboard',
    request: () => ({ method: 'GET', url: '/api/seller/dashboard?period=7d' }),
    // Everyone signed in sees their own figures: the owner's placed sale is in the owner's queue only.
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
    check(_f, actor, response) {
      if (actor === 'signedOut') return;
      const toAccept = (response.json() as { queue: { toAccept: number } }).queue.toAccept;
      if (actor === 'owner') expect(toAccept).toBeGreaterThan(0);
      else expect(toAccept).toBe(0);
    },
  },
  {
    route: 'GET /api/seller/dashboard.csv',
    request: () => ({ method: 'GET', url: '/api/seller/dashboard.csv?period=7d' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'GET /api/seller/orders.csv',
    request: () => {
      const today = new Date().toISOString().slice(0, 10);
      return { method: 'GET', url: `/api/seller/orders.csv?from=${today}&to=${today}` };
    },
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'PUT /api/seller/settings',
    request: () => ({ method: 'PUT', url: '/api/seller/settings', payload: { minimumOrder: 50 } }),
    // Everyone signed in sets their own.
    expected: { signedOut: 401, other: 200, owner: 200 },
  },
  {
    route: 'GET /api/product/{id}/seller',
    request: (f) => ({ method: 'GET', url: `/api/product/${f.productId}/seller` }),
    expected: { signedOut: 200, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
];

/** Catalog CSV export and import (docs/decisions/018-catalog-import.md): another seller's job is a 404. */
const CATALOG_ROUTES: RouteCase[] = [
  {
    route: 'GET /api/my/catalog.csv',
    request: () => ({ method: 'GET', url: '/api/my/catalog.csv' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
    check(_f, actor, response) {
      // The other user sells nothing: their export is the header alone.
      if (actor === 'other') expect(response.body.trim().split('\r\n')).toHaveLength(1);
      if (actor === 'owner') expect(response.body.trim().split('\r\n')).toHaveLength(2);
    },
  },
  {
    route: 'GET /api/catalog-imports',
    request: () => ({ method: 'GET', url: '/api/catalog-imports' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
    check(f, actor, response) {
      if (actor === 'owner') expect(response.body).toContain(f.importId);
      else expect(response.body).not.toContain(f.importId);
    },
  },
  ...(['', '/errors.csv', '/changes'] as const).map(
    (tail): RouteCase => ({
      route: `GET /api/catalog-imports/{id}${tail}`,
      request: (f) => ({ method: 'GET', url: `/api/catalog-imports/${f.importId}${tail}` }),
      expected: { signedOut: 401, other: 404, owner: 200 },
      readOnly: { other: true, owner: true },
    }),
  ),
  {
    route: 'POST /api/catalog-imports',
    // An empty file: each signed-in caller reaches their own upload and is refused there, so no job starts.
    request: () => {
      const body = multipartBody(Buffer.alloc(0), { field: 'file', filename: 'catalog.csv', type: 'text/csv' });
      return { method: 'POST', url: '/api/catalog-imports', headers: body.headers, payload: body.payload };
    },
    expected: { signedOut: 401, other: 422, owner: 422 },
  },
  {
    route: 'POST /api/catalog-imports/{id}/apply',
    request: (f) => ({ method: 'POST', url: `/api/catalog-imports/${f.importId}/apply` }),
    expected: { signedOut: 401, other: 404, owner: 202 },
  },
  {
    route: 'POST /api/catalog-imports/{id}/undo',
    request: (f) => ({ method: 'POST', url: `/api/catalog-imports/${f.importId}/undo` }),
    // The owner's import is not applied yet: nothing to undo.
    expected: { signedOut: 401, other: 404, owner: 409 },
  },
];

export const ROUTES: RouteCase[] = [
  ...API_REFERENCE_ROUTES,
  ...BUSINESS_ROUTES,
  ...CART_ROUTES,
  ...CATALOG_ROUTES,
  {
    route: 'GET /api/health',
    request: () => ({ method: 'GET', url: '/api/health' }),
    expected: { signedOut: 200, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'GET /api/me',
    request: () => ({ method: 'GET', url: '/api/me' }),
    expected: { signedOut: 200, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
    check(f, actor, response) {
      const email = (response.json() as { user: { email: string } | null }).user?.email ?? null;
      expect(email).toBe(actor === 'signedOut' ? null : actor === 'other' ? f.other.email : f.owner.email);
    },
  },
  // Account settings act on the caller's own account only: there is no id to point at another's.
  {
    route: 'GET /api/me/sessions',
    request: () => ({ method: 'GET', url: '/api/me/sessions' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'POST /api/me/sessions/sign-out-others',
    request: () => ({ method: 'POST', url: '/api/me/sessions/sign-out-others', payload: {} }),
    // The other user has one session, so nothing else to end; the owner has spares (makeFixture), which end.
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true },
  },
  {
    route: 'DELETE /api/me',
    request: () => ({ method: 'DELETE', url: '/api/me', payload: { password: 'Not-the-password-1' } }),
    expected: { signedOut: 401, other: 422, owner: 422 },
  },
  {
    route: 'GET /api/topproduct',
    request: () => ({ method: 'GET', url: '/api/topproduct' }),
    expected: { signedOut: 200, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'GET /api/allproduct',
    request: () => ({ method: 'GET', url: '/api/allproduct?limit=5' }),
    expected: { signedOut: 200, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'GET /api/product/{id}',
    request: (f) => ({ method: 'GET', url: `/api/product/${f.productId}` }),
    expected: { signedOut: 200, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  // Search (docs/decisions/009-search.md): public reads; the words match the fixture's product (validProductBody).
  publicRead('GET /api/search', `/api/search?q=kettle&category=${enc('Home & Kitchen Appliances')}&sort=price_asc&limit=5`),
  publicRead('GET /api/search/suggest', '/api/search/suggest?q=ket'),
  {
    route: "GET /api/products/{email} (the owner's email)",
    request: (f) => ({ method: 'GET', url: `/api/products/${enc(f.owner.email)}` }),
    expected: { signedOut: 401, other: 403, owner: 200 },
    readOnly: { owner: true },
    check(f, actor, response) {
      if (actor === 'owner') expect((response.json() as Array<{ _id: string }>).map((p) => p._id)).toContain(f.productId);
      else expect(response.body).not.toContain(f.productId);
    },
  },
  {
    route: "GET /api/products/{email} (the owner's email in capitals)",
    request: (f) => ({ method: 'GET', url: `/api/products/${enc(f.owner.email.toUpperCase())}` }),
    expected: { signedOut: 401, other: 403, owner: 200 },
    readOnly: { owner: true },
  },
  {
    route: 'POST /api/addproduct',
    request: () => ({ method: 'POST', url: '/api/addproduct', payload: validProductBody({ name: `Matrix ${randomUUID()}` }) }),
    // Anyone signed in may list a product of their own.
    expected: { signedOut: 401, other: 201, owner: 201 },
  },
  {
    route: 'PUT /api/updateproduct/{id}',
    request: (f) => ({ method: 'PUT', url: `/api/updateproduct/${f.productId}`, payload: validProductBody({ name: 'Taken over' }) }),
    expected: { signedOut: 401, other: 403, owner: 200 },
  },
  {
    route: 'PATCH /api/products/{id} (stock down)',
    request: (f) => ({ method: 'PATCH', url: `/api/products/${f.productId}`, payload: { quantity: -5 } }),
    expected: { signedOut: 401, other: 403, owner: 200 },
  },
  {
    route: 'PATCH /api/products/{id} (stock up)',
    request: (f) => ({ method: 'PATCH', url: `/api/products/${f.productId}`, payload: { quantity: 5 } }),
    expected: { signedOut: 401, other: 403, owner: 200 },
  },
  {
    route: 'POST /api/my/products/{id}/relist',
    request: (f) => ({ method: 'POST', url: `/api/my/products/${f.productId}/relist` }),
    expected: { signedOut: 401, other: 403, owner: 200 },
    // The fixture's product is listed: relisting it answers it as it is and changes nothing
    // (products-unlisted.test.ts relists an unlisted one).
    readOnly: { owner: true },
    check(f, actor, response) {
      if (actor === 'owner') expect(response.json()).toMatchObject({ _id: f.productId, unlisted: false });
    },
  },
  {
    route: 'DELETE /api/product/{id}',
    request: (f) => ({ method: 'DELETE', url: `/api/product/${f.productId}` }),
    expected: { signedOut: 401, other: 403, owner: 200 },
  },
  {
    route: 'POST /api/order',
    request: (f) => ({ method: 'POST', url: '/api/order', payload: { productId: f.productId, quantity: 10 } }),
    // Anyone signed in may buy, but not their own product (docs/decisions/012-order-workflow.md).
    expected: { signedOut: 401, other: 201, owner: 403 },
  },
  {
    route: "GET /api/orders/{email} (the owner's email)",
    request: (f) => ({ method: 'GET', url: `/api/orders/${enc(f.owner.email)}` }),
    expected: { signedOut: 401, other: 403, owner: 200 },
    readOnly: { owner: true },
    check(f, actor, response) {
      if (actor === 'owner') expect((response.json() as Array<{ _id: string }>).map((o) => o._id)).toContain(f.orderId);
      else expect(response.body).not.toContain(f.orderId);
    },
  },
  {
    route: "GET /api/orders/{email} (the owner's email in capitals)",
    request: (f) => ({ method: 'GET', url: `/api/orders/${enc(f.owner.email.toUpperCase())}` }),
    expected: { signedOut: 401, other: 403, owner: 200 },
    readOnly: { owner: true },
  },
  {
    route: 'DELETE /api/order/{id}',
    request: (f) => ({ method: 'DELETE', url: `/api/order/${f.orderId}` }),
    // Another buyer's order looks exactly like an unknown one.
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'GET /api/order/{id}',
    request: (f) => ({ method: 'GET', url: `/api/order/${f.orderId}` }),
    expected: { signedOut: 401, other: 404, owner: 200 },
    readOnly: { owner: true },
  },
  {
    route: 'POST /api/order/{id}/received',
    request: (f) => ({ method: 'POST', url: `/api/order/${f.orderId}/received` }),
    // The fixture's order is placed, not shipped: the owner's answer is the workflow's 409.
    expected: { signedOut: 401, other: 404, owner: 409 },
  },
  {
    route: 'GET /api/account/ship-to',
    request: () => ({ method: 'GET', url: '/api/account/ship-to' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'PUT /api/account/ship-to',
    request: () => ({ method: 'PUT', url: '/api/account/ship-to', payload: TEST_SHIP_TO_BODY }),
    // Everyone signed in writes their own address only.
    expected: { signedOut: 401, other: 200, owner: 200 },
  },
  {
    route: 'GET /api/sales',
    request: () => ({ method: 'GET', url: '/api/sales?limit=5' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
    check(f, actor, response) {
      if (actor === 'owner') expect((response.json() as Array<{ _id: string }>).map((o) => o._id)).toContain(f.saleId);
      else expect(response.body).not.toContain(f.saleId);
    },
  },
  {
    route: 'GET /api/sales/counts',
    request: () => ({ method: 'GET', url: '/api/sales/counts' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'GET /api/sales/{id}',
    request: (f) => ({ method: 'GET', url: `/api/sales/${f.saleId}` }),
    expected: { signedOut: 401, other: 404, owner: 200 },
    readOnly: { owner: true },
  },
  {
    route: 'POST /api/sales/{id}/accept',
    request: (f) => ({ method: 'POST', url: `/api/sales/${f.saleId}/accept`, payload: {} }),
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'POST /api/sales/accept',
    request: (f) => ({ method: 'POST', url: '/api/sales/accept', payload: { ids: [f.saleId] } }),
    // Someone else's order is refused like an unknown one, and nothing changes.
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true },
    check(f, actor, response) {
      if (actor === 'signedOut') return;
      const answer = response.json() as { accepted: Array<{ _id: string }>; refused: Array<{ _id: string; number: string | null }> };
      if (actor === 'owner') expect(answer.accepted.map((o) => o._id)).toEqual([f.saleId]);
      else expect(answer).toEqual({ accepted: [], refused: [expect.objectContaining({ _id: f.saleId, number: null })] });
    },
  },
  {
    route: 'POST /api/sales/{id}/decline',
    request: (f) => ({ method: 'POST', url: `/api/sales/${f.saleId}/decline`, payload: { reason: 'Matrix' } }),
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'POST /api/sales/{id}/ship',
    request: (f) => ({ method: 'POST', url: `/api/sales/${f.saleId}/ship`, payload: {} }),
    // A placed order cannot ship before it is accepted: the seller's answer is the workflow's 409.
    expected: { signedOut: 401, other: 404, owner: 409 },
  },
  {
    route: 'POST /api/sales/{id}/deliver',
    request: (f) => ({ method: 'POST', url: `/api/sales/${f.saleId}/deliver` }),
    expected: { signedOut: 401, other: 404, owner: 409 },
  },
  {
    route: 'GET /api/notifications',
    request: () => ({ method: 'GET', url: '/api/notifications?limit=5' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
    check(f, actor, response) {
      if (actor === 'owner') expect((response.json() as Array<{ _id: string }>).map((n) => n._id)).toContain(f.notificationId);
      else expect(response.body).not.toContain(f.notificationId);
    },
  },
  {
    route: 'GET /api/notifications/unread-count',
    request: () => ({ method: 'GET', url: '/api/notifications/unread-count' }),
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'POST /api/notifications/{id}/read',
    request: (f) => ({ method: 'POST', url: `/api/notifications/${f.notificationId}/read` }),
    expected: { signedOut: 401, other: 404, owner: 200 },
  },
  {
    route: 'POST /api/notifications/read-all',
    request: () => ({ method: 'POST', url: '/api/notifications/read-all' }),
    // Everyone marks their own: the other user has none unread, so nothing changes for them.
    expected: { signedOut: 401, other: 200, owner: 200 },
    readOnly: { other: true },
  },
  {
    route: 'GET /api/product/{id}/open-orders',
    request: (f) => ({ method: 'GET', url: `/api/product/${f.productId}/open-orders` }),
    expected: { signedOut: 401, other: 404, owner: 200 },
    readOnly: { owner: true },
  },
  // better-auth's session reads answer the session token (a Bearer credential): not offered, /api/me is.
  {
    route: 'GET /api/auth/get-session',
    request: () => ({ method: 'GET', url: '/api/auth/get-session' }),
    expected: { signedOut: 404, other: 404, owner: 404 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'GET /api/auth/list-sessions',
    request: () => ({ method: 'GET', url: '/api/auth/list-sessions' }),
    expected: { signedOut: 404, other: 404, owner: 404 },
    readOnly: { other: true, owner: true },
  },
  // Not on the allow-list of better-auth endpoints the product uses (auth.routes.ts).
  {
    route: "POST /api/auth/revoke-session (the owner's session)",
    request: (f) => ({ method: 'POST', url: '/api/auth/revoke-session', payload: { token: f.spareOwnerToken } }),
    expected: { signedOut: 404, other: 404, owner: 404 },
    readOnly: { other: true, owner: true },
  },
  {
    route: 'GET /api/no-such-route',
    request: () => ({ method: 'GET', url: '/api/no-such-route' }),
    expected: { signedOut: 404, other: 404, owner: 404 },
    readOnly: { other: true, owner: true },
  },
];

async function insertSpareSession(env: TestEnv, user: TestUser): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await env
    .db()
    .insert(session)
    .values({ id: randomUUID(), token, userId: user.id, expiresAt: new Date(Date.now() + 86_400_000) });
  return token;
}

/**
 * Deletes what earlier fixtures left (products, orders and what hangs off them, cart lines,
 * notifications and their emails, business profiles and the audit), keeping the users and their sessions. Tests that make
 * a fixture per case call it first, so the database stays one fixture big: a snapshot then reads a
 * few rows instead of every row all earlier cases made (the respelling suite made 1,400 products).
 * Rows go by DELETE, not TRUNCATE, so the catalog's triggers keep the search tables in step.
 */
export async function clearFixtures(env: Pick<TestEnv, 'db'>): Promise<void> {
  await env.db().transaction(async (tx) => {
    await tx.delete(orders);
    // Each fixture puts a new product in the owner's cart; lines copy their product rather than
    // reference it, so they outlive its deletion, and a cart holds 200.
    await tx.delete(cartLines);
    await tx.delete(emailOutbox);
    await tx.delete(notifications);
    await tx.delete(products);
    await tx.delete(businessProfiles);
    await tx.delete(verificationAudit);
    await tx.delete(catalogImports);
  });
}

/** A fresh product, order and spare session for one route case: a permitted write may consume them. */
export async function makeFixture(env: TestEnv, users: { owner: TestUser; other: TestUser; seller: TestUser }): Promise<Fixture> {
  const { owner, other, seller } = users;
  const product = await seedProduct(env, owner, { mainquantity: 1_000, minquantity: 10, priceCents: 1_500 });
  const bought = await seedProduct(env, seller, { mainquantity: 1_000, minquantity: 10, priceCents: 700 });
  const order = await env.request({ method: 'POST', url: '/api/order', headers: { cookie: owner.cookie }, payload: { productId: bought.id, quantity: 10 } });
  expect(order.statusCode, order.body).toBe(201);
  const sale = await env.request({ method: 'POST', url: '/api/order', headers: { cookie: seller.cookie }, payload: { productId: product.id, quantity: 10 } });
  expect(sale.statusCode, sale.body).toBe(201);
  const saleId = (sale.json() as { _id: string })._id;
  const [told] = await env
    .db()
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.orderId, saleId), eq(notifications.userId, owner.id)));
  if (!told) throw new Error('the sale told its seller nothing');
  const carted = await env.request({ method: 'PUT', url: `/api/cart/lines/${bought.id}`, headers: { cookie: owner.cookie }, payload: { quantity: 10 } });
  expect(carted.statusCode, carted.body).toBe(200);
  // A fresh list each case (a buyer keeps at most 20).
  await env.db().delete(orderLists).where(eq(orderLists.ownerId, owner.id));
  const list = await env.request({
    method: 'POST',
    url: '/api/lists',
    headers: { cookie: owner.cookie },
    payload: { name: 'Matrix list', lines: [{ productId: bought.id, quantity: 10 }] },
  });
  expect(list.statusCode, list.body).toBe(201);
  return {
    owner,
    other,
    productId: product.id,
    orderId: (order.json() as { _id: string })._id,
    saleId,
    notificationId: told.id,
    spareOwnerToken: await insertSpareSession(env, owner),
    verificationId: await ensurePendingVerification(env, owner, other),
    cartProductId: bought.id,
    listId: (list.json() as { id: string }).id,
    importId: await insertReadyImport(env, owner),
  };
}

/** A catalog import of the owner's, validated and ready: one row, which matches the fixture's product unchanged. */
async function insertReadyImport(env: TestEnv, owner: TestUser): Promise<string> {
  const [job] = await env
    .db()
    .insert(catalogImports)
    .values({ sellerId: owner.id, sellerEmail: owner.email, fileName: 'catalog.csv', status: 'ready', total: 1, unchangedCount: 1 })
    .returning({ id: catalogImports.id });
  if (!job) throw new Error('no import');
  await env
    .db()
    .insert(catalogImportRows)
    .values({ importId: job.id, rowNumber: 2, sku: 'MATRIX-1', action: 'unchanged', cells: { sku: 'MATRIX-1' } });
  return job.id;
}

/** The owner's business profile, pending with a document, and none for the other user: reset for each case. */
async function ensurePendingVerification(env: TestEnv, user: TestUser, other: TestUser): Promise<string> {
  await env.db().delete(businessProfiles).where(eq(businessProfiles.userId, other.id));
  const document = Buffer.from(`%PDF-1.4\n${OWNER_DOCUMENT_TEXT}\n%%EOF\n`);
  const fields = {
    status: 'pending',
    documentType: 'application/pdf',
    documentName: 'permit.pdf',
    documentSize: document.length,
    documentUploadedAt: new Date(),
  };
  const [row] = await env
    .db()
    .insert(businessProfiles)
    .values({ ...(validBusinessBody() as typeof businessProfiles.$inferInsert), userId: user.id, ...fields, queueSeq: sql`nextval('business_queue_seq')` })
    .onConflictDoUpdate({ target: businessProfiles.userId, set: fields })
    .returning({ id: businessProfiles.id });
  if (!row) throw new Error('no business profile');
  await env
    .db()
    .insert(businessDocuments)
    .values({ profileId: row.id, bytes: document })
    .onConflictDoUpdate({ target: businessDocuments.profileId, set: { bytes: document } });
  return row.id;
}

/** `GET /api/product/{id}` and `GET /api/product/:id` both become `GET /api/product/:param`. */
export function normaliseRoute(route: string): string {
  return route.replace(/\{\w+\}/g, ':param').replace(/:\w+(\|:\w+)*/g, ':param');
}

/**
 * Who a case says may call its route: nobody but an operator (a 404 to everyone), anyone signed in
 * (401 when signed out), or anyone. lib/define-route.ts's `auth` of the route must say the same.
 */
export function authExpectedBy(expected: RouteCase['expected']): 'operator' | 'signedIn' | 'anyone' {
  if (expected.signedOut === 404 && expected.other === 404 && expected.owner === 404) return 'operator';
  return expected.signedOut === 401 ? 'signedIn' : 'anyone';
}

/** The app's route table (app.ts records every route as it is added) as `METHOD /path` lines. */
export function listApiRoutes(table: RouteOptions[]): string[] {
  return table.flatMap((route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/auth/')) return [];
    return [route.method]
      .flat()
      .filter((method) => method !== 'HEAD')
      .map((method) => normaliseRoute(`${method} ${route.url}`));
  });
}
