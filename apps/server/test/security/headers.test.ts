import { describe, expect, it } from 'vitest';
import { describeEachDatabase, createTestEnv } from '../helpers/test-app.ts';
import { signUpUser } from '../helpers/accounts.ts';

describeEachDatabase('security headers and origin checks', (env) => {
  it('sends a strict Content-Security-Policy and the usual hardening headers', async () => {
    const response = await env().request({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('sends the same hardening headers with error answers, from the router and from a handler', async () => {
    const healthy = await env().request({ method: 'GET', url: '/api/health' });
    const expected = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options', 'cross-origin-opener-policy'];
    for (const response of [
      await env().request({ method: 'GET', url: '/api/no-such-route' }),
      await env().request({ method: 'GET', url: '/api/product/00000000-0000-4000-8000-000000000000' }),
      await env().request({ method: 'POST', url: '/api/order', payload: {} }),
    ]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      for (const name of expected) expect([name, response.headers[name]]).toEqual([name, healthy.headers[name]]);
    }
  });

  it('marks API answers that carry personal data as not cacheable', async () => {
    const user = await signUpUser(env());
    const response = await env().request({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } });
    expect(response.json().user.email).toBe(user.email);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses a cross-site write that carries a valid session cookie', async () => {
    const user = await signUpUser(env());
    const response = await env().app.inject({
      method: 'POST',
      url: '/api/addproduct',
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
      payload: {},
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('refuses a cookie write with no Origin or Referer at all', async () => {
    const user = await signUpUser(env());
    const response = await env().app.inject({ method: 'DELETE', url: '/api/order/00000000-0000-4000-8000-000000000000', headers: { cookie: user.cookie } });
    expect(response.statusCode).toBe(403);
  });

  it('keeps CORS closed: no Access-Control-Allow-Origin for a foreign origin', async () => {
    const response = await env().app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

// One embedded database each: two in one test took 28 s of its 30 s on a loaded 2-core machine.
describe('production-only headers', () => {
  it('sends HSTS for at least a year in production', async () => {
    const prod = await createTestEnv('pglite', {
      NODE_ENV: 'production',
      BASE_URL: 'https://shop.example',
      BETTER_AUTH_SECRET: 'a-production-grade-secret-of-at-least-32-characters',
      SEED_DEMO: 'false',
    });
    try {
      const response = await prod.app.inject({ method: 'GET', url: '/api/health' });
      const maxAge = Number(/max-age=(\d+)/.exec(String(response.headers['strict-transport-security']))?.[1]);
      expect(maxAge).toBeGreaterThanOrEqual(31_536_000);
    } finally {
      await prod.close();
    }
  });

  it('never sends HSTS in development', async () => {
    const dev = await createTestEnv('pglite');
    try {
      const response = await dev.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await dev.close();
    }
  });

  it('opens CORS only to configured origins', async () => {
    const env = await createTestEnv('pglite', { CORS_ORIGINS: 'https://partner.example' });
    try {
      const allowed = await env.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://partner.example' } });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://partner.example');
      const other = await env.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await env.close();
    }
  });
});
