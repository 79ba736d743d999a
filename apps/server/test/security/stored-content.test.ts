import { beforeAll, expect, it } from 'vitest';
import type { Order, Product } from '@bulkcart/contracts';
import { describeEachDatabase } from '../helpers/test-app.ts';
import { signUpUser, type TestUser } from '../helpers/accounts.ts';
import { seedProduct, validProductBody } from '../helpers/products.ts';
import { takeSnapshot } from './support/db-snapshot.ts';

/**
 * Stored content stays data (docs/reliability.md): markup is kept verbatim and only ever served as JSON,
 * and image URLs that a browser would run or that load from elsewhere are refused before storage.
 * e2e/security-stored-content.spec.ts shows the same strings render as text in the browser.
 */
const HOSTILE = {
  name: '<img src=x onerror=alert(1)>',
  brandname: '<script>alert("brand")</script>',
  description: '"><svg onload=alert(2)>',
  Content: "<iframe src=\"javascript:alert('content')\"></iframe>{{constructor.constructor('alert(3)')()}}",
};

const REFUSED_IMAGES = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\tjavascript:alert(1)',
  'java\nscript:alert(1)',
  'vbscript:msgbox(1)',
  'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'http://evil.example/pixel.png',
  '//evil.example/pixel.png',
  '/\\evil.example/pixel.png',
  'https://ok.example/x.png" onerror="alert(1)',
  "https://ok.example/x.png'><script>alert(1)</script>",
];

describeEachDatabase('stored content is inert', (env) => {
  let seller: TestUser;
  let buyer: TestUser;

  beforeAll(async () => {
    [seller, buyer] = await Promise.all([signUpUser(env(), { name: 'Markup Seller' }), signUpUser(env(), { name: 'Markup Buyer' })]);
  });

  it('keeps markup in names and texts verbatim and serves it only as JSON', async () => {
    const added = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: { cookie: seller.cookie },
      payload: validProductBody({ ...HOSTILE, minquantity: 1 }),
    });
    expect(added.statusCode).toBe(201);
    const id = (added.json() as Product)._id;

    for (const url of [`/api/product/${id}`, '/api/allproduct?limit=200', '/api/topproduct', `/api/products/${encodeURIComponent(seller.email)}`]) {
      const response = await env().request({ method: 'GET', url, headers: { cookie: seller.cookie } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      if (url.includes('topproduct')) continue;
      const body = response.json() as Product | Product[];
      const product = Array.isArray(body) ? body.find((p) => p._id === id) : body;
      expect(product, url).toMatchObject(HOSTILE);
    }

    // The order keeps a snapshot of the name: the cart reads it back verbatim, as JSON.
    const order = await env().request({ method: 'POST', url: '/api/order', headers: { cookie: buyer.cookie }, payload: { productId: id, quantity: 1 } });
    expect(order.statusCode).toBe(201);
    const listed = await env().request({ method: 'GET', url: `/api/orders/${encodeURIComponent(buyer.email)}`, headers: { cookie: buyer.cookie } });
    expect(listed.headers['content-type']).toMatch(/^application\/json/);
    expect((listed.json() as Order[]).find((o) => o.productId === id)?.product).toMatchObject({ name: HOSTILE.name, brandname: HOSTILE.brandname });
  });

  for (const field of ['image', 'image2', 'image3'] as const) {
    it(`refuses ${REFUSED_IMAGES.length} unsafe ${field} URLs on add and on update (422 on ${field}, nothing stored)`, async () => {
      const product = await seedProduct(env(), seller);
      for (const image of REFUSED_IMAGES) {
        for (const request of [
          { method: 'POST' as const, url: '/api/addproduct' },
          { method: 'PUT' as const, url: `/api/updateproduct/${product.id}` },
        ]) {
          const before = await takeSnapshot(env().db());
          const response = await env().request({ ...request, headers: { cookie: seller.cookie }, payload: validProductBody({ [field]: image }) });
          const what = `${request.method} ${field}=${JSON.stringify(image)}`;
          expect(response.statusCode, what).toBe(422);
          expect(response.json(), what).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { [field]: [expect.any(String)] } } });
          expect(await takeSnapshot(env().db()), what).toEqual(before);
        }
      }
    });
  }

  it('accepts the two safe kinds: an https URL and a path on this site', async () => {
    for (const image of ['https://cdn.example.com/p/kettle.webp', '/images/products/kettle.webp']) {
      const response = await env().request({
        method: 'POST',
        url: '/api/addproduct',
        headers: { cookie: seller.cookie },
        payload: validProductBody({ image }),
      });
      expect(response.statusCode, image).toBe(201);
      expect((response.json() as Product).image).toBe(image);
    }
  });

  it('never reflects markup from the URL or the body into an error answer as HTML', async () => {
    const probes = [
      { method: 'GET' as const, url: '/api/product/%3Cscript%3Ealert(1)%3C%2Fscript%3E' },
      { method: 'GET' as const, url: '/api/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E' },
      { method: 'GET' as const, url: '/api/allproduct?category=%3Cscript%3Ealert(1)%3C%2Fscript%3E' },
      { method: 'POST' as const, url: '/api/addproduct', payload: { ...validProductBody(), category: '<script>alert(1)</script>' } },
    ];
    for (const probe of probes) {
      const response = await env().request({ ...probe, headers: { cookie: seller.cookie } });
      expect(response.statusCode, probe.url).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, probe.url).toBeLessThan(500);
      expect(response.headers['content-type'], probe.url).toMatch(/^application\/json/);
      expect(response.body, probe.url).not.toMatch(/<script|<img/i);
    }
  });
});
