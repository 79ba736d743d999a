import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { queryRows } from '../../db/rows.ts';
import { attachAuthLogger } from './auth.ts';

/**
 * better-auth serves more endpoints than the product uses. Only those on the allow-list
 * (AUTH_ENDPOINTS_OFFERED) are reachable, under our rules: our error shape, our log levels.
 */

const NO_SUCH_ROUTE = { error: { code: 'NOT_FOUND', title: 'Not found', message: 'No such API route.' } };

async function findUser(env: TestEnv, email: string) {
  const [row] = await queryRows<{ name: string; image: string | null; email_verified: boolean; updated_at: string }>(
    env.db(),
    sql`SELECT name, image, email_verified, updated_at::text FROM "user" WHERE email = ${email}`,
  );
  return row ?? null;
}

async function getMe(env: TestEnv, user: TestUser) {
  const response = await env.request({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } });
  return (response.json() as { user: { displayName: string; photoURL: string | null } | null }).user;
}

describeEachDatabase('auth endpoints: unknown and unoffered paths answer in our error shape', (env) => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser(env());
  });

  it.each([
    ['GET', '/api/auth/nothing'],
    ['POST', '/api/auth/nothing'],
    ['GET', '/api/auth/nothing/deeper?x=1'],
  ] as const)('%s %s answers 404 "No such API route." as the rest of the API does', async (method, url) => {
    const response = await env().request({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(NO_SUCH_ROUTE);
    // The same as a made-up path outside /api/auth.
    const elsewhere = await env().request({ method, url: '/api/nothing', ...(method === 'POST' ? { payload: {} } : {}) });
    expect(elsewhere.json()).toEqual(NO_SUCH_ROUTE);
  });

  it.each([
    ['POST', '/api/auth/delete-user', {}],
    ['GET', '/api/auth/delete-user/callback?token=x', undefined],
    ['GET', '/api/auth/reset-password/some-token?callbackURL=/', undefined],
    ['POST', '/api/auth/link-social', { provider: 'google' }],
    ['POST', '/api/auth/update-session', { anything: 1 }],
    ['POST', '/api/auth/unlink-account', { providerId: 'credential' }],
    ['GET', '/api/auth/list-accounts', undefined],
    ['GET', '/api/auth/account-info?accountId=x', undefined],
    ['POST', '/api/auth/get-access-token', { providerId: 'google' }],
    ['POST', '/api/auth/refresh-token', { providerId: 'google' }],
    ['GET', '/api/auth/get-session', undefined],
    ['GET', '/api/auth/list-sessions', undefined],
    // Profile changes: the app has no page for them, so better-auth's endpoint is not offered either.
    ['POST', '/api/auth/update-user', { name: 'Hijacked Name', image: 'javascript:alert(1)' }],
    ['POST', '/api/auth/revoke-session', { token: 'x' }],
    ['POST', '/api/auth/revoke-sessions', {}],
    ['POST', '/api/auth/revoke-other-sessions', {}],
    ['GET', '/api/auth/ok', undefined],
    ['GET', '/api/auth/error', undefined],
    // The offered endpoints under another method.
    ['GET', '/api/auth/sign-in/email', undefined],
    ['GET', '/api/auth/change-password', undefined],
    ['GET', '/api/auth/request-password-reset', undefined],
    ['POST', '/api/auth/verify-email?token=x', {}],
    ['GET', '/api/auth/sign-out', undefined],
    ['POST', '/api/auth/callback/google', {}],
  ] as const)('%s %s (a feature we do not offer) answers 404 and changes nothing', async (method, url, payload) => {
    const before = await findUser(env(), user.email);
    const response = await env().request({ method, url, headers: { cookie: user.cookie }, ...(payload ? { payload } : {}) });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NO_SUCH_ROUTE);
    expect(await findUser(env(), user.email)).toEqual(before);
    expect(await getMe(env(), user)).not.toBeNull();
  });
});

describeEachDatabase('auth endpoints: refused cross-site requests are logged as warnings', (env) => {
  const lines: Array<{ level: number; msg: string }> = [];
  let capture: FastifyInstance;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
        done();
      },
    });
    // A real pino logger (Fastify's) writing JSON lines into `lines`, plugged in as the app's own is.
    capture = Fastify({ logger: { level: 'debug', stream } });
    attachAuthLogger(env().ctx.auth, capture.log);
  });
  afterAll(async () => {
    attachAuthLogger(env().ctx.auth, env().app.log);
    await capture.close();
  });

  it('logs a sign-in from a foreign origin at warn, not error, and still refuses it', async () => {
    const user = await signUpUser(env());
    // A unique origin, so the repeat limiter cannot have seen this line from another test.
    const origin = `https://evil-${randomUUID().slice(0, 8)}.example`;
    lines.length = 0;
    const response = await env().request({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: user.email, password: user.password },
      headers: { origin },
    });
    expect(response.statusCode).toBe(403);
    expect(lines.filter((l) => l.msg.startsWith('Invalid origin'))).toEqual([expect.objectContaining({ level: 40, msg: `Invalid origin: ${origin}` })]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('logs a cross-site form navigation to sign-in at warn, not error, and still refuses it', async () => {
    lines.length = 0;
    const response = await env().app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: `nobody-${randomUUID()}@example.com`, password: 'Passw0rd' },
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
    });
    expect(response.statusCode).toBe(403);
    expect(lines.filter((l) => l.msg.startsWith('Blocked cross-site navigation'))).toEqual([expect.objectContaining({ level: 40 })]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('writes a different failure within the repeat window with its stack, and one line for the same failure repeated', async () => {
    const log = env().ctx.auth.options.logger?.log;
    if (!log) throw new Error('better-auth logger not configured');
    // Unique texts, so the repeat limiter cannot have seen them from another test.
    const tag = randomUUID().slice(0, 8);
    const failed = (text: string) => Object.assign(new Error(text), { code: `E_${tag}` });
    lines.length = 0;
    log('error', 'better-auth request failed', failed(`first failure ${tag}`));
    log('error', 'better-auth request failed', failed(`first failure ${tag}`));
    log('error', 'better-auth request failed', new TypeError(`second failure ${tag}`));
    log('error', 'better-auth request failed', failed(`third failure ${tag}`));
    const written = lines.filter((l) => l.msg === 'better-auth request failed') as Array<{ details?: Array<{ message?: string; stack?: string }> }>;
    expect(written.map((l) => l.details?.[0]?.message)).toEqual([`first failure ${tag}`, `second failure ${tag}`, `third failure ${tag}`]);
    expect(written.map((l) => l.details?.[0]?.stack)).toEqual([
      expect.stringContaining('auth-endpoints.test.ts'),
      expect.stringContaining('TypeError'),
      expect.any(String),
    ]);
  });
});
