import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { MESSAGES } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { queryRows } from '../../db/rows.ts';
import { attachAuthLogger } from './auth.ts';
import { seedProduct, OTHER_SELLER } from '../../../test/helpers/products.ts';

/**
 * better-auth serves more endpoints than the sign-up and sign-in forms use. These tests hold each one
 * that a client can reach to our rules: the form's validation, our error shape, our log levels.
 */

const UPDATE_USER = '/api/auth/update-user';
const CHANGE_PASSWORD = '/api/auth/change-password';
const SIGN_IN = '/api/auth/sign-in/email';
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

function updateUser(env: TestEnv, user: TestUser, payload: unknown) {
  return env.request({ method: 'POST', url: UPDATE_USER, payload: payload as Record<string, unknown>, headers: { cookie: user.cookie } });
}

describeEachDatabase('auth endpoints: profile update (update-user) follows the sign-up rules', (env) => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser(env(), { name: 'Profile Person' });
  });

  it('refuses an empty name and a javascript: photo with the form’s messages, changing nothing', async () => {
    const before = await findUser(env(), user.email);
    const response = await updateUser(env(), user, { name: '', image: 'javascript:alert(1)' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: {
        code: 'VALIDATION',
        title: 'Invalid input',
        message: MESSAGES.nameTooShort,
        fieldErrors: { name: [MESSAGES.nameTooShort], image: ['Photo URL must be an https URL'] },
      },
    });
    expect(await findUser(env(), user.email)).toEqual(before);
    expect(await getMe(env(), user)).toMatchObject({ displayName: 'Profile Person', photoURL: null });
    // The account can still buy: a refused update cannot leave it without a name.
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 100, minquantity: 10 });
    const order = await env().request({ method: 'POST', url: '/api/order', payload: { productId, quantity: 10 }, headers: { cookie: user.cookie } });
    expect(order.statusCode).toBe(201);
  });

  const badUpdates: Array<[string, Record<string, unknown>, string, string]> = [
    ['a name shorter than 5 characters', { name: 'Abcd' }, 'name', MESSAGES.nameTooShort],
    ['a name of spaces only', { name: '        ' }, 'name', MESSAGES.nameTooShort],
    ['a name that is not text', { name: 12345 }, 'name', MESSAGES.nameTooShort],
    ['a plain http photo URL', { image: 'http://images.example/a.png' }, 'image', 'Photo URL must be an https URL'],
    ['a data: photo URL', { image: 'data:image/png;base64,AAAA' }, 'image', 'Photo URL must be an https URL'],
    ['a javascript: photo URL next to a valid name', { name: 'Valid Name', image: 'javascript:alert(1)' }, 'image', 'Photo URL must be an https URL'],
  ];

  it.each(badUpdates)('refuses %s with the form’s message and changes nothing', async (_label, payload, field, message) => {
    const before = await findUser(env(), user.email);
    const response = await updateUser(env(), user, payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: { code: 'VALIDATION', title: 'Invalid input', message, fieldErrors: { [field]: [message] } } });
    expect(await findUser(env(), user.email)).toEqual(before);
  });

  it('changes a valid name (trimmed) and an https photo, which /api/me then shows', async () => {
    const other = await signUpUser(env(), { name: 'Before Name' });
    const response = await updateUser(env(), other, { name: '  After Name ', image: 'https://images.example/after.png' });
    expect(response.statusCode).toBe(200);
    expect(await getMe(env(), other)).toMatchObject({ displayName: 'After Name', photoURL: 'https://images.example/after.png' });
  });

  it('changes only the fields given, and clears the photo for an empty or null one', async () => {
    const other = await signUpUser(env(), { name: 'Photo Keeper' });
    expect((await updateUser(env(), other, { image: 'https://images.example/p.png' })).statusCode).toBe(200);
    expect(await getMe(env(), other)).toMatchObject({ displayName: 'Photo Keeper', photoURL: 'https://images.example/p.png' });
    expect((await updateUser(env(), other, { image: '' })).statusCode).toBe(200);
    expect((await findUser(env(), other.email))?.image).toBeNull();
    expect((await updateUser(env(), other, { image: 'https://images.example/q.png' })).statusCode).toBe(200);
    expect((await updateUser(env(), other, { image: null })).statusCode).toBe(200);
    expect(await getMe(env(), other)).toMatchObject({ displayName: 'Photo Keeper', photoURL: null });
  });

  it('answers a body that is not an object with our error shape and changes nothing', async () => {
    const before = await findUser(env(), user.email);
    const response = await updateUser(env(), user, ['name', 'Array Name']);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { code: 'VALIDATION' } });
    expect(await findUser(env(), user.email)).toEqual(before);
  });
});

describeEachDatabase('auth endpoints: change-password is not offered', (env) => {
  function changePassword(user: TestUser, currentPassword: string, newPassword: string) {
    return env().request({ method: 'POST', url: CHANGE_PASSWORD, payload: { currentPassword, newPassword }, headers: { cookie: user.cookie } });
  }

  function signIn(user: TestUser, password: string) {
    return env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email, password } });
  }

  it('answers 404 to a session holder guessing the current password, right or wrong, and changes nothing', async () => {
    const user = await signUpUser(env());
    // Guesses beyond the sign-in limit: none may be told apart from the right one.
    for (let i = 0; i < 12; i++) {
      const response = await changePassword(user, `Wrong${i}Guess`, 'NewPassw0rd');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NO_SUCH_ROUTE);
    }
    const right = await changePassword(user, user.password, 'NewPassw0rd');
    expect(right.statusCode).toBe(404);
    expect(right.json()).toEqual(NO_SUCH_ROUTE);
    expect((await signIn(user, user.password)).statusCode).toBe(200);
    expect((await signIn(user, 'NewPassw0rd')).statusCode).toBe(401);
  });
});

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
    ['POST', '/api/auth/change-email', { newEmail: 'taken-over@example.com' }],
    ['POST', '/api/auth/delete-user', {}],
    ['GET', '/api/auth/delete-user/callback?token=x', undefined],
    ['POST', '/api/auth/request-password-reset', { email: 'someone@example.com' }],
    ['POST', '/api/auth/reset-password', { newPassword: 'Passw0rd', token: 'x' }],
    ['GET', '/api/auth/reset-password/some-token?callbackURL=/', undefined],
    ['POST', '/api/auth/send-verification-email', { email: 'someone@example.com' }],
    ['GET', '/api/auth/verify-email?token=x', undefined],
    ['POST', '/api/auth/link-social', { provider: 'google' }],
    ['POST', '/api/auth/update-session', { anything: 1 }],
    ['POST', '/api/auth/change-password', { currentPassword: 'Passw0rd', newPassword: 'NewPassw0rd' }],
    ['POST', '/api/auth/unlink-account', { providerId: 'credential' }],
    ['GET', '/api/auth/list-accounts', undefined],
    ['GET', '/api/auth/account-info?accountId=x', undefined],
    ['POST', '/api/auth/get-access-token', { providerId: 'google' }],
    ['POST', '/api/auth/refresh-token', { providerId: 'google' }],
    ['GET', '/api/auth/get-session', undefined],
    ['GET', '/api/auth/list-sessions', undefined],
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
    const response = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email, password: user.password }, headers: { origin } });
    expect(response.statusCode).toBe(403);
    expect(lines.filter((l) => l.msg.startsWith('Invalid origin'))).toEqual([expect.objectContaining({ level: 40, msg: `Invalid origin: ${origin}` })]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('logs a cross-site form navigation to sign-in at warn, not error, and still refuses it', async () => {
    lines.length = 0;
    const response = await env().app.inject({
      method: 'POST',
      url: SIGN_IN,
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
    expect(written.map((l) => l.details?.[0]?.stack)).toEqual([expect.stringContaining('auth-endpoints.test.ts'), expect.stringContaining('TypeError'), expect.any(String)]);
  });
});
