import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { MESSAGES } from '@bulkcart/contracts';
import { describeEachDatabase, TEST_ORIGIN, type TestEnv } from '../../../test/helpers/test-app.ts';
import { signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { queryRows } from '../../db/rows.ts';
import { registerErrorHandling } from '../../plugins/errors.ts';
import { validProductBody } from '../../../test/helpers/products.ts';
import { requireUser } from './session.ts';

const FOREIGN_ORIGIN = 'https://evil.example';
const SIGN_UP = '/api/auth/sign-up/email';
const SIGN_IN = '/api/auth/sign-in/email';

async function countUsers(env: TestEnv): Promise<number> {
  const [row] = await queryRows<{ n: number }>(env.db(), sql`SELECT count(*)::int AS n FROM "user"`);
  return row?.n ?? 0;
}

async function findUser(env: TestEnv, email: string) {
  const [row] = await queryRows<{ name: string; image: string | null; email_verified: boolean }>(
    env.db(),
    sql`SELECT name, image, email_verified FROM "user" WHERE email = ${email}`,
  );
  return row ?? null;
}

/** The session row's token: the bearer token and cookie carry it signed, as `token.signature`. */
function sessionToken(user: TestUser): string {
  return user.token.split('.')[0] ?? '';
}

async function getMe(env: TestEnv, headers: Record<string, string> = {}) {
  const response = await env.request({ method: 'GET', url: '/api/me', headers });
  expect(response.statusCode).toBe(200);
  return { response, body: response.json() as { user: { id: string; email: string; displayName: string; photoURL: string | null } | null } };
}

function setCookies(headers: Record<string, unknown>): string[] {
  const value = headers['set-cookie'];
  return Array.isArray(value) ? value.map(String) : value ? [String(value)] : [];
}

function newEmail(): string {
  return `acct-${randomUUID()}@example.com`;
}

describeEachDatabase('accounts: sign-up', (env) => {
  it('creates the account with the display name and photo, signs the user in, and /api/me shows them', async () => {
    const email = newEmail();
    const response = await env().request({
      method: 'POST',
      url: SIGN_UP,
      payload: { name: '  Rahim Traders ', email, password: 'Passw0rd', image: 'https://images.example/rahim.png' },
    });
    expect(response.statusCode).toBe(200);
    expect(await findUser(env(), email)).toMatchObject({ name: 'Rahim Traders', image: 'https://images.example/rahim.png' });
    const cookie = setCookies(response.headers).find((c) => c.startsWith('better-auth.session_token='));
    expect(cookie).toBeDefined();
    const { body } = await getMe(env(), { cookie: cookie!.split(';')[0]! });
    expect(body.user).toMatchObject({ email, displayName: 'Rahim Traders', photoURL: 'https://images.example/rahim.png' });
  });

  it('stores no photo when the photo URL is left empty', async () => {
    const email = newEmail();
    const response = await env().request({ method: 'POST', url: SIGN_UP, payload: { name: 'Karim Stores', email, password: 'Passw0rd', image: '' } });
    expect(response.statusCode).toBe(200);
    expect((await findUser(env(), email))?.image).toBeNull();
  });

  it('ignores fields a client may not set, such as a verified email', async () => {
    const email = newEmail();
    const response = await env().request({
      method: 'POST',
      url: SIGN_UP,
      payload: { name: 'Sneaky Buyer', email, password: 'Passw0rd', emailVerified: true },
    });
    expect(response.statusCode).toBe(200);
    expect((await findUser(env(), email))?.email_verified).toBe(false);
  });

  const badSignUps: Array<[string, Record<string, unknown>, string, string]> = [
    ['a name shorter than 5 characters', { name: 'Abcd' }, 'name', MESSAGES.nameTooShort],
    ['a name of spaces only', { name: '        ' }, 'name', MESSAGES.nameTooShort],
    ['no name', { name: undefined }, 'name', MESSAGES.nameTooShort],
    ['a password without an uppercase letter', { password: 'passw0rd' }, 'password', MESSAGES.weakPassword],
    ['a password without a lowercase letter', { password: 'PASSW0RD' }, 'password', MESSAGES.weakPassword],
    ['a password shorter than 6 characters', { password: 'Pass1' }, 'password', MESSAGES.weakPassword],
    ['no password', { password: undefined }, 'password', MESSAGES.weakPassword],
    ['an invalid email', { email: 'not-an-email' }, 'email', 'Enter a valid email address'],
    ['no email', { email: undefined }, 'email', 'Enter a valid email address'],
    ['a plain http photo URL', { image: 'http://images.example/a.png' }, 'image', 'Photo URL must be an https URL'],
    ['a javascript: photo URL', { image: 'javascript:alert(1)' }, 'image', 'Photo URL must be an https URL'],
  ];

  it.each(badSignUps)('refuses %s with the form’s message and creates nothing', async (_label, change, field, message) => {
    const email = newEmail();
    const payload = { name: 'Valid Name', email, password: 'Passw0rd', ...change };
    const before = await countUsers(env());
    const response = await env().request({ method: 'POST', url: SIGN_UP, payload });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: { code: 'VALIDATION', title: 'Invalid input', message, fieldErrors: { [field]: [message] } },
    });
    expect(setCookies(response.headers)).toEqual([]);
    expect(await countUsers(env())).toBe(before);
  });

  it('refuses a body that is not JSON, creating nothing', async () => {
    const before = await countUsers(env());
    const response = await env().request({ method: 'POST', url: SIGN_UP, payload: 'name=x', headers: { 'content-type': 'text/plain' } });
    // text/plain is what a cross-site form can send without a preflight: refused as a media type.
    expect(response.statusCode).toBe(415);
    expect(await countUsers(env())).toBe(before);
  });

  it('refuses an email that is already taken, in any letter case, with a readable error on the email field', async () => {
    const existing = await signUpUser(env());
    const before = await countUsers(env());
    const response = await env().request({
      method: 'POST',
      url: SIGN_UP,
      payload: { name: 'Second Person', email: existing.email.toUpperCase(), password: 'Other0ne' },
    });
    expect(response.statusCode).toBe(422);
    const body = response.json() as { error: { code: string; message: string; fieldErrors: Record<string, string[]> } };
    expect(body.error.code).toBe('VALIDATION');
    expect(body.error.message).toBe('User already exists. Use another email.');
    expect(body.error.fieldErrors.email).toEqual(['User already exists. Use another email.']);
    expect(await countUsers(env())).toBe(before);
    // The first owner's password still works: nothing about the account changed.
    const signIn = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: existing.email, password: existing.password } });
    expect(signIn.statusCode).toBe(200);
  });
});

describeEachDatabase('accounts: sign-in, sessions and sign-out', (env) => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser(env(), { name: 'Signin Person' });
  });

  it('signs in with the right password and the session cookie identifies the user', async () => {
    const response = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email, password: user.password } });
    expect(response.statusCode).toBe(200);
    const cookie = setCookies(response.headers).find((c) => c.startsWith('better-auth.session_token='));
    const { body } = await getMe(env(), { cookie: cookie!.split(';')[0]! });
    expect(body.user).toEqual({ id: user.id, email: user.email, displayName: 'Signin Person', photoURL: null, emailVerified: true });
  });

  it('accepts the email in another letter case', async () => {
    const response = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email.toUpperCase(), password: user.password } });
    expect(response.statusCode).toBe(200);
  });

  it('gives the same answer for an unknown email and for a wrong password', async () => {
    const wrongPassword = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email, password: 'Wrong0ne' } });
    const unknownEmail = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: newEmail(), password: 'Wrong0ne' } });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(unknownEmail.json()).toEqual(wrongPassword.json());
    expect(wrongPassword.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED', message: 'Invalid email or password' } });
    expect(setCookies(wrongPassword.headers).some((c) => /session_token=[^;]/.test(c))).toBe(false);
  });

  it('refuses a sign-in without a valid email or password with the form’s rules', async () => {
    const badEmail = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: 'nope', password: 'x' } });
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.json()).toMatchObject({ error: { fieldErrors: { email: ['Enter a valid email address'] } } });
    const noPassword = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email, password: '' } });
    expect(noPassword.statusCode).toBe(422);
    expect(noPassword.json()).toMatchObject({ error: { fieldErrors: { password: ['Password is required'] } } });
  });

  it('does not rate limit when RATE_LIMIT is off (the test default)', async () => {
    for (let i = 0; i < 7; i++) {
      const response = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email, password: 'Wrong0ne' } });
      expect(response.statusCode).toBe(401);
    }
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, on the whole site, without Secure outside production', async () => {
    const response = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email, password: user.password } });
    const cookie = setCookies(response.headers).find((c) => c.startsWith('better-auth.session_token='))!;
    const attributes = cookie
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', 'max-age=604800']));
    expect(attributes).not.toContain('secure');
  });

  it('answers /api/me with user null and no error when nobody is signed in', async () => {
    const { body } = await getMe(env());
    expect(body.user).toBeNull();
    const { body: badCookie } = await getMe(env(), { cookie: 'better-auth.session_token=forged.value' });
    expect(badCookie.user).toBeNull();
  });

  it('tells the app whether Google sign-in is configured and, in demo mode only, the demo buyer', async () => {
    const response = await env().request({ method: 'GET', url: '/api/me' });
    const body = response.json() as { googleEnabled: boolean; demoLogin?: unknown };
    expect(body.googleEnabled).toBe(false);
    // Demo mode is the default with the embedded database and off with PostgreSQL (no SEED_DEMO set here).
    if (env().kind === 'pglite') expect(body.demoLogin).toEqual({ email: 'buyer@bulkcart.demo', password: 'DemoBuyer1' });
    else expect(body).not.toHaveProperty('demoLogin');
  });

  it('lets an API client use the session token as a bearer token', async () => {
    const { body } = await getMe(env(), { authorization: `Bearer ${user.token}` });
    expect(body.user?.email).toBe(user.email);
    const { body: forged } = await getMe(env(), { authorization: 'Bearer not-a-real-token' });
    expect(forged.user).toBeNull();
  });

  it('signs out: the session is gone for cookie and bearer alike', async () => {
    const other = await signUpUser(env());
    const response = await env().request({ method: 'POST', url: '/api/auth/sign-out', payload: {}, headers: { cookie: other.cookie } });
    expect(response.statusCode).toBe(200);
    expect(setCookies(response.headers).some((c) => /^better-auth\.session_token=;/.test(c) && /max-age=0/i.test(c))).toBe(true);
    expect((await getMe(env(), { cookie: other.cookie })).body.user).toBeNull();
    expect((await getMe(env(), { authorization: `Bearer ${other.token}` })).body.user).toBeNull();
  });
});

describeEachDatabase('accounts: protected calls', (env) => {
  // A route guarded exactly as the product and order routes are, so the rule is tested on its own.
  let guarded: FastifyInstance;
  beforeAll(async () => {
    guarded = Fastify({ logger: false });
    await registerErrorHandling(guarded);
    guarded.get('/api/guarded', async (request) => ({ email: (await requireUser(env().ctx.auth, request)).email }));
    await guarded.ready();
  });
  afterAll(async () => {
    await guarded.close();
  });

  it('answers 401 with a JSON error when there is no session', async () => {
    const response = await guarded.inject({ method: 'GET', url: '/api/guarded' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 'UNAUTHENTICATED', title: 'Sign in required', message: 'Please sign in first.' } });
  });

  it('answers 401 for a forged cookie or bearer token', async () => {
    for (const headers of [{ cookie: 'better-auth.session_token=abc.def' }, { authorization: 'Bearer abc.def' }]) {
      expect((await guarded.inject({ method: 'GET', url: '/api/guarded', headers })).statusCode).toBe(401);
    }
  });

  it('lets the user through with the session cookie or the bearer token', async () => {
    const user = await signUpUser(env());
    for (const headers of [{ cookie: user.cookie }, { authorization: `Bearer ${user.token}` }]) {
      const response = await guarded.inject({ method: 'GET', url: '/api/guarded', headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ email: user.email });
    }
  });
});

describeEachDatabase('accounts: cross-site requests', (env) => {
  it('better-auth refuses a sign-out from a foreign origin and the session survives', async () => {
    const user = await signUpUser(env());
    const response = await env().request({
      method: 'POST',
      url: '/api/auth/sign-out',
      payload: {},
      headers: { cookie: user.cookie, origin: FOREIGN_ORIGIN },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect((await getMe(env(), { cookie: user.cookie })).body.user?.email).toBe(user.email);
  });

  it('better-auth refuses a sign-in or sign-up posted from a foreign origin (login CSRF)', async () => {
    const user = await signUpUser(env());
    const signIn = await env().request({
      method: 'POST',
      url: SIGN_IN,
      payload: { email: user.email, password: user.password },
      headers: { origin: FOREIGN_ORIGIN },
    });
    expect(signIn.statusCode).toBe(403);
    expect(setCookies(signIn.headers)).toEqual([]);
    const before = await countUsers(env());
    const signUp = await env().request({
      method: 'POST',
      url: SIGN_UP,
      payload: { name: 'Forged Person', email: newEmail(), password: 'Passw0rd' },
      headers: { origin: FOREIGN_ORIGIN },
    });
    expect(signUp.statusCode).toBe(403);
    expect(await countUsers(env())).toBe(before);
  });

  it('our own API refuses a cookie-carrying write from a foreign origin, or with no origin, before routing', async () => {
    const user = await signUpUser(env());
    const foreign = await env().request({ method: 'POST', url: '/api/addproduct', payload: {}, headers: { cookie: user.cookie, origin: FOREIGN_ORIGIN } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ error: { code: 'FORBIDDEN', title: 'Not allowed', message: 'Cross-site request refused.' } });
    const noOrigin = await env().app.inject({ method: 'DELETE', url: '/api/order/some-id', headers: { cookie: user.cookie } });
    expect(noOrigin.statusCode).toBe(403);
    const sameSiteReferer = await env().app.inject({
      method: 'POST',
      url: '/api/no-such-route',
      payload: {},
      headers: { cookie: user.cookie, referer: `${TEST_ORIGIN}/addproduct` },
    });
    // Past the origin check, so the router answers (404 for this made-up path).
    expect(sameSiteReferer.statusCode).toBe(404);
  });
});

describeEachDatabase('accounts: an Authorization header that does not sign the request in', (env) => {
  const productBody = validProductBody({ name: 'Cross Site Towels' });

  async function countProducts(): Promise<number> {
    const [row] = await queryRows<{ n: number }>(env().db(), sql`SELECT count(*)::int AS n FROM products`);
    return row?.n ?? 0;
  }

  it.each([
    ['Basic credentials', () => `Basic ${Buffer.from('buyer:secret').toString('base64')}`],
    ['a forged bearer token', () => 'Bearer not-a-real-token'],
    ['an unknown scheme', () => 'Token abc'],
  ])('does not skip the cross-site check when it carries %s and the cookie’s session would be used', async (_label, header) => {
    const user = await signUpUser(env());
    const before = await countProducts();
    const response = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      payload: productBody,
      headers: { cookie: user.cookie, origin: FOREIGN_ORIGIN, authorization: header() },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: { code: 'FORBIDDEN', title: 'Not allowed', message: 'Cross-site request refused.' } });
    expect(await countProducts()).toBe(before);
  });

  it('lets a request its own bearer token signs in skip the Origin check, cookie or not', async () => {
    const user = await signUpUser(env());
    const response = await env().request({
      method: 'POST',
      url: '/api/addproduct',
      payload: productBody,
      headers: { cookie: user.cookie, origin: FOREIGN_ORIGIN, authorization: `Bearer ${user.token}` },
    });
    expect(response.statusCode, response.body).toBe(201);
  });
});

describeEachDatabase('accounts: session lifetime', (env) => {
  async function ageSession(user: TestUser, days: number): Promise<void> {
    await env()
      .db()
      .execute(sql`UPDATE session SET created_at = now() - make_interval(days => ${days}) WHERE token = ${sessionToken(user)}`);
  }

  async function sessionExists(user: TestUser): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(env().db(), sql`SELECT id FROM session WHERE token = ${sessionToken(user)}`);
    return rows.length === 1;
  }

  it('keeps a 29-day-old session that is still in use', async () => {
    const user = await signUpUser(env());
    await ageSession(user, 29);
    expect((await getMe(env(), { cookie: user.cookie })).body.user?.email).toBe(user.email);
  });

  it('refuses and deletes a session signed in more than 30 days ago, even though it kept sliding', async () => {
    const user = await signUpUser(env());
    await ageSession(user, 31);
    expect((await getMe(env(), { cookie: user.cookie })).body.user).toBeNull();
    expect(await sessionExists(user)).toBe(false);
    expect((await getMe(env(), { authorization: `Bearer ${user.token}` })).body.user).toBeNull();
  });

  it('better-auth’s own endpoints delete an over-age session before they see it', async () => {
    const user = await signUpUser(env());
    await ageSession(user, 31);
    const signOut = await env().request({ method: 'POST', url: '/api/auth/sign-out', payload: {}, headers: { cookie: user.cookie } });
    expect(signOut.statusCode).toBe(200);
    expect(await sessionExists(user)).toBe(false);
  });

  it('slides the browser cookie along with the session when /api/me refreshes it', async () => {
    const user = await signUpUser(env());
    // Two days into the 7-day sliding window: due for a refresh (updateAge is one day).
    await env()
      .db()
      .execute(sql`UPDATE session SET expires_at = now() + interval '5 days' WHERE token = ${sessionToken(user)}`);
    const { response } = await getMe(env(), { cookie: user.cookie });
    const refreshed = setCookies(response.headers).find((c) => c.startsWith('better-auth.session_token='));
    expect(refreshed).toMatch(/Max-Age=604800/);
    const [row] = await queryRows<{ days: number }>(
      env().db(),
      sql`SELECT extract(epoch FROM expires_at - now()) / 86400 AS days FROM session WHERE token = ${sessionToken(user)}`,
    );
    expect(Number(row?.days)).toBeGreaterThan(6.9);
  });

  it('does not hand a session cookie to a bearer-token client', async () => {
    const user = await signUpUser(env());
    await env()
      .db()
      .execute(sql`UPDATE session SET expires_at = now() + interval '5 days' WHERE token = ${sessionToken(user)}`);
    const { response, body } = await getMe(env(), { authorization: `Bearer ${user.token}` });
    expect(body.user?.email).toBe(user.email);
    expect(setCookies(response.headers)).toEqual([]);
  });
});

describeEachDatabase(
  'accounts in production mode',
  (env) => {
    const origin = 'https://shop.example';
    it('marks the session cookie Secure (and __Secure- prefixed) and offers no demo login', async () => {
      const response = await env().request({
        method: 'POST',
        url: SIGN_UP,
        payload: { name: 'Prod Person', email: newEmail(), password: 'Passw0rd' },
        headers: { origin },
      });
      expect(response.statusCode).toBe(200);
      const cookie = setCookies(response.headers).find((c) => c.startsWith('__Secure-better-auth.session_token='));
      expect(cookie).toBeDefined();
      const attributes = cookie!
        .split(';')
        .slice(1)
        .map((a) => a.trim().toLowerCase());
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'secure']));
      const me = await env().request({ method: 'GET', url: '/api/me', headers: { cookie: cookie!.split(';')[0]! } });
      expect(me.json()).toMatchObject({ user: { displayName: 'Prod Person' } });
      expect(me.json()).not.toHaveProperty('demoLogin');
    });

    it('refuses the development origin as foreign', async () => {
      const response = await env().request({
        method: 'POST',
        url: SIGN_UP,
        payload: { name: 'Prod Person', email: newEmail(), password: 'Passw0rd' },
        headers: { origin: TEST_ORIGIN },
      });
      expect(response.statusCode).toBe(403);
    });
  },
  { NODE_ENV: 'production', BASE_URL: 'https://shop.example', BETTER_AUTH_SECRET: 'a-strong-production-secret-0123456789abcdef' },
);

describeEachDatabase(
  'accounts: passwords hashed with scrypt (what production runs; other suites use the test hash)',
  (env) => {
    it('stores a salted scrypt key, never the password, and signs in only with the right password', async () => {
      const user = await signUpUser(env(), { password: 'Hashed0ne!' });
      const rows = await queryRows<{ password: string }>(env().db(), sql`SELECT password FROM account WHERE user_id = ${user.id}`);
      expect(rows).toHaveLength(1);
      const stored = rows[0]!.password;
      expect(stored).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      expect(stored).not.toContain('Hashed0ne!');
      const right = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email, password: 'Hashed0ne!' } });
      expect(right.statusCode).toBe(200);
      const wrong = await env().request({ method: 'POST', url: SIGN_IN, payload: { email: user.email, password: 'Hashed0ne?' } });
      expect(wrong.statusCode).toBe(401);
    });
  },
  { PASSWORD_HASH: 'scrypt' },
);
