import { beforeAll, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { BODY_LIMIT_BYTES } from '../../src/app.ts';
import { describeEachDatabase } from '../helpers/test-app.ts';
import { signUpUser, type TestUser } from '../helpers/accounts.ts';
import { seedProduct, validProductBody } from '../helpers/products.ts';
import { takeSnapshot } from './support/db-snapshot.ts';

/**
 * The cases the fuzz suite found or must never miss, pinned as plain examples: each answer is a 4xx in
 * the one JSON error shape (docs/product/api.md#errors) and the database is unchanged.
 */
function expectErrorBody(response: LightMyRequestResponse, status: number, code: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual({ error: { code, title: expect.any(String), message: expect.any(String) } });
}

describeEachDatabase('malformed requests', (env) => {
  let user: TestUser;
  let productId: string;

  beforeAll(async () => {
    user = await signUpUser(env(), { name: 'Malformed Sender' });
    productId = (await seedProduct(env(), user)).id;
  });

  it('refuses a NUL character in any product text with 400, storing nothing', async () => {
    for (const field of ['name', 'brandname', 'description', 'Content']) {
      for (const request of [
        { method: 'POST' as const, url: '/api/addproduct' },
        { method: 'PUT' as const, url: `/api/updateproduct/${productId}` },
      ]) {
        const before = await takeSnapshot(env().db());
        const response = await env().request({ ...request, headers: { cookie: user.cookie }, payload: validProductBody({ [field]: 'Tea\u0000Towels' }) });
        expectErrorBody(response, 400, 'BAD_REQUEST');
        expect(await takeSnapshot(env().db()), `${request.method} ${field}`).toEqual(before);
      }
    }
  });

  it('answers a URL that does not decode with 400 in the JSON error shape', async () => {
    for (const url of ['/api/product/%zz', '/api/orders/%E0%A4%A', '/api/product/%']) {
      expectErrorBody(await env().request({ method: 'GET', url, headers: { cookie: user.cookie } }), 400, 'BAD_REQUEST');
    }
    const before = await takeSnapshot(env().db());
    expectErrorBody(await env().request({ method: 'DELETE', url: '/api/order/%zz', headers: { cookie: user.cookie } }), 400, 'BAD_REQUEST');
    expect(await takeSnapshot(env().db())).toEqual(before);
  });

  it('answers an absurdly long id with 404 in the JSON error shape', async () => {
    const before = await takeSnapshot(env().db());
    for (const method of ['GET', 'DELETE'] as const) {
      expectErrorBody(await env().request({ method, url: `/api/product/${'7'.repeat(5_000)}`, headers: { cookie: user.cookie } }), 404, 'NOT_FOUND');
    }
    expect(await takeSnapshot(env().db())).toEqual(before);
  });

  it('serves its own lists to a user whose email is 200 characters long', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.example.com`;
    expect(email.length).toBeGreaterThan(190);
    const longNamed = await signUpUser(env(), { email });
    for (const path of ['/api/products/', '/api/orders/']) {
      const response = await env().request({ method: 'GET', url: `${path}${encodeURIComponent(email)}`, headers: { cookie: longNamed.cookie } });
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
      expect(response.json()).toEqual([]);
    }
  });

  it('refuses every body that is not JSON with 415, text/plain included', async () => {
    const before = await takeSnapshot(env().db());
    const cases = [
      { method: 'POST' as const, url: '/api/addproduct', payload: JSON.stringify(validProductBody()) },
      { method: 'POST' as const, url: '/api/order', payload: JSON.stringify({ productId, quantity: 10 }) },
      { method: 'PATCH' as const, url: `/api/products/${productId}`, payload: JSON.stringify({ quantity: -1 }) },
      { method: 'POST' as const, url: '/api/auth/sign-in/email', payload: JSON.stringify({ email: user.email, password: user.password }) },
    ];
    for (const c of cases) {
      for (const type of [
        'text/plain',
        'text/plain; charset=utf-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
      ]) {
        const response = await env().request({ ...c, headers: { cookie: user.cookie, 'content-type': type } });
        expect(response.statusCode, `${c.method} ${c.url} as ${type}`).toBe(415);
        expect(response.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
      }
    }
    expect(await takeSnapshot(env().db())).toEqual(before);
  });

  it('refuses a body one byte over 100 KB with 413 and one under it is read', async () => {
    const over = JSON.stringify({ ...validProductBody(), padding: 'x'.repeat(BODY_LIMIT_BYTES) });
    expectErrorBody(
      await env().request({ method: 'POST', url: '/api/addproduct', headers: { cookie: user.cookie, 'content-type': 'application/json' }, payload: over }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    const base = JSON.stringify({ ...validProductBody(), padding: '' });
    const under = JSON.stringify({ ...validProductBody(), padding: 'x'.repeat(BODY_LIMIT_BYTES - base.length) });
    expect(Buffer.byteLength(under)).toBe(BODY_LIMIT_BYTES);
    const read = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      headers: { cookie: user.cookie, 'content-type': 'application/json' },
      payload: under,
    });
    expect(read.statusCode).toBe(201);
  });

  it('refuses prototype-poisoning keys with 400 and stores nothing', async () => {
    const before = await takeSnapshot(env().db());
    for (const payload of ['{"__proto__":{"isAdmin":true},"quantity":5}', '{"constructor":{"prototype":{"isAdmin":true}},"quantity":5}']) {
      const response = await env().request({
        method: 'PATCH',
        url: `/api/products/${productId}`,
        headers: { cookie: user.cookie, 'content-type': 'application/json' },
        payload,
      });
      expectErrorBody(response, 400, 'BAD_REQUEST');
    }
    expect(await takeSnapshot(env().db())).toEqual(before);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('refuses about 49,000 nested brackets (under 100 KB) on every write route with 400, never a 500', async () => {
    const depth = 49_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const nestedInObject = `{"email":${nested}}`;
    expect(Buffer.byteLength(nested)).toBeLessThan(BODY_LIMIT_BYTES);
    const routes = [
      { method: 'POST' as const, url: '/api/auth/sign-up/email' },
      { method: 'POST' as const, url: '/api/auth/sign-in/email' },
      { method: 'POST' as const, url: '/api/auth/sign-out' },
      { method: 'POST' as const, url: '/api/auth/sign-in/social' },
      { method: 'POST' as const, url: '/api/addproduct' },
      { method: 'POST' as const, url: '/api/order' },
      { method: 'PATCH' as const, url: `/api/products/${productId}` },
      { method: 'PUT' as const, url: `/api/updateproduct/${productId}` },
    ];
    const before = await takeSnapshot(env().db());
    for (const route of routes) {
      for (const payload of [nested, nestedInObject]) {
        const response = await env().request({ ...route, headers: { cookie: user.cookie, 'content-type': 'application/json' }, payload });
        expectErrorBody(response, 400, 'BAD_REQUEST');
      }
    }
    expect(await takeSnapshot(env().db())).toEqual(before);
  });

  it('still reads bodies nested as deep as a real client could need', async () => {
    const response = await env().request({
      method: 'PATCH',
      url: `/api/products/${productId}`,
      headers: { cookie: user.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ quantity: 1, note: [[[[{ a: [[['deep']]] }]]]] }),
    });
    expect(response.statusCode, response.body).toBe(200);
  });
});
