import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../../test/helpers/test-app.ts';
import { signUpUser } from '../../test/helpers/accounts.ts';
import { OTHER_SELLER, seedProduct } from '../../test/helpers/products.ts';
import { loggablePath } from './request-log.ts';

/** docs/decisions/010-production-runtime.md: a log a person can read, with no secret in it. */
interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  userId?: string;
}

const INFO = 30;
const DEBUG = 20;

describe('request log: sign in, buy, cancel', () => {
  const raw: string[] = [];
  let env: TestEnv;

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        raw.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    env = await createTestEnv('pglite', {}, { level: 'debug', stream });
  });
  afterAll(async () => {
    await env.close();
  });

  it('writes one info line per API request, health and the web app at debug, and no cookie, token or password anywhere', async () => {
    const password = `Secret-${randomUUID()}`;
    const buyer = await signUpUser(env, { password });
    const { id: productId } = await seedProduct(env, OTHER_SELLER, { minquantity: 10 });

    const signIn = await env.request({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: buyer.email, password } });
    expect(signIn.statusCode).toBe(200);
    const setCookie = ([] as string[]).concat(signIn.headers['set-cookie'] ?? []);
    const cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
    const sessionToken = decodeURIComponent(cookie.split('better-auth.session_token=')[1]?.split(';')[0] ?? '').split('.')[0] ?? '';
    expect(sessionToken.length).toBeGreaterThan(10);

    const order = await env.request({
      method: 'POST',
      url: '/api/order',
      headers: { cookie, 'idempotency-key': randomUUID() },
      payload: { productId, quantity: 10 },
    });
    expect(order.statusCode).toBe(201);
    const orderId = (order.json() as { _id?: string; id?: string })._id ?? (order.json() as { id: string }).id;
    const mine = await env.request({ method: 'GET', url: `/api/orders/${encodeURIComponent(buyer.email)}?limit=5`, headers: { cookie } });
    expect(mine.statusCode).toBe(200);
    const cancel = await env.request({ method: 'DELETE', url: `/api/order/${orderId}`, headers: { cookie } });
    expect(cancel.statusCode).toBe(200);
    const bearer = await env.request({
      method: 'GET',
      url: '/api/orders/' + encodeURIComponent(buyer.email),
      headers: { authorization: `Bearer ${buyer.token}` },
    });
    expect(bearer.statusCode).toBe(200);
    expect((await env.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await env.request({ method: 'GET', url: '/products/anything' });

    const lines = raw.map((line) => JSON.parse(line) as LogLine);
    const info = lines.filter((l) => l.level === INFO);
    // Sign-up, sign-in, order, list, cancel, list by bearer: six API requests, six lines, in order.
    expect(info.map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
      'POST /api/auth/sign-up/email 200',
      'POST /api/auth/sign-in/email 200',
      'POST /api/order 201',
      `GET /api/orders/${encodeURIComponent(buyer.email)} 200`,
      `DELETE /api/order/${orderId} 200`,
      `GET /api/orders/${encodeURIComponent(buyer.email)} 200`,
    ]);
    expect(new Set(info.map((l) => l.reqId)).size).toBe(info.length);
    for (const line of info) {
      expect(line.reqId).toMatch(/^[\w-]{8,64}$/);
      expect(typeof line.ms).toBe('number');
    }
    expect(info.slice(2).map((l) => l.userId)).toEqual([buyer.id, buyer.id, buyer.id, buyer.id]);

    const quiet = lines.filter((l) => l.level === DEBUG).map((l) => l.path);
    expect(quiet).toEqual(['/api/health', '/products/anything']);
    // Nothing else: Fastify's own "incoming request" / "request completed" pair is gone.
    expect(lines.filter((l) => l.level !== INFO && l.level !== DEBUG)).toEqual([]);

    const secrets = [password, sessionToken, buyer.token, cookie, buyer.cookie];
    for (const line of raw) for (const secret of secrets) expect(line).not.toContain(secret);
    expect(raw.join('\n')).not.toMatch(/cookie|authorization|password/i);
  });
});

describe('loggablePath', () => {
  it('drops the query string and the reset token better-auth carries in the path', () => {
    expect(loggablePath('/api/auth/verify-email?token=abc.def&callbackURL=/')).toBe('/api/auth/verify-email');
    expect(loggablePath('/api/auth/reset-password/tok_123?callbackURL=/x')).toBe('/api/auth/reset-password/:token');
    expect(loggablePath('/api/products?category=Toys')).toBe('/api/products');
  });
});
