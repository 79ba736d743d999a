import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { session } from '../../db/schema/auth.ts';
import { createSessionCache } from './session-cache.ts';

/** docs/decisions/021-session-cache.md: what a cached session may and may not outlive. */

describe('session cache', () => {
  const user = { id: 'u1' };

  it('keeps an entry for its time to live, never past the end of its session', () => {
    let now = 1_000;
    const cache = createSessionCache<typeof user>({ ttlMs: 5_000, now: () => now });
    const long = cache.keyOf('Bearer a', undefined) as string;
    const ending = cache.keyOf('Bearer b', undefined) as string;
    cache.remember(long, cache.generation(), user, now + 60_000);
    cache.remember(ending, cache.generation(), user, now + 2_000);
    now += 1_999;
    expect([cache.get(long), cache.get(ending)]).toEqual([user, user]);
    now += 1;
    expect(cache.get(ending)).toBeNull();
    now += 2_999;
    expect(cache.get(long)).toBe(user);
    now += 1;
    expect(cache.get(long)).toBeNull();
  });

  it('stores nothing that a lookup read before the sessions were forgotten', () => {
    const cache = createSessionCache<typeof user>({ ttlMs: 5_000 });
    const key = cache.keyOf(undefined, 'better-auth.session_token=t.s') as string;
    const startedAt = cache.generation();
    // A sign-out ends the session while that lookup is still reading it from the database.
    cache.forgetAll();
    cache.remember(key, startedAt, user, Date.now() + 60_000);
    expect(cache.get(key)).toBeNull();
    cache.remember(key, cache.generation(), user, Date.now() + 60_000);
    expect(cache.get(key)).toBe(user);
    cache.forgetAll();
    expect(cache.get(key)).toBeNull();
  });

  it('keys on both credentials, by a hash that never holds the token', () => {
    const cache = createSessionCache<typeof user>({ ttlMs: 5_000 });
    const bearerOnly = cache.keyOf('Bearer secret-token', undefined);
    expect(bearerOnly).not.toContain('secret-token');
    expect(new Set([bearerOnly, cache.keyOf('Bearer secret-token', 'a=b'), cache.keyOf(undefined, 'Bearer secret-token')]).size).toBe(3);
  });

  it('holds at most maxEntries, dropping the oldest; with no time to live it is off', () => {
    const cache = createSessionCache<typeof user>({ ttlMs: 5_000, maxEntries: 2 });
    const keys = ['a', 'b', 'c'].map((t) => cache.keyOf(`Bearer ${t}`, undefined) as string);
    for (const key of keys) cache.remember(key, cache.generation(), user, Date.now() + 60_000);
    expect(cache.size()).toBe(2);
    expect(keys.map((k) => cache.get(k) !== null)).toEqual([false, true, true]);
    expect(createSessionCache({ ttlMs: 0 }).keyOf('Bearer a', undefined)).toBeNull();
  });
});

async function whoIs(env: TestEnv, headers: Record<string, string>): Promise<string | null> {
  const response = await env.request({ method: 'GET', url: '/api/me', headers });
  expect(response.statusCode).toBe(200);
  return (response.json() as { user: { email: string } | null }).user?.email ?? null;
}

async function signIn(env: TestEnv, person: TestUser): Promise<Record<string, string>> {
  const response = await env.request({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: person.email, password: person.password } });
  expect(response.statusCode).toBe(200);
  return { authorization: `Bearer ${String(response.headers['set-auth-token'])}` };
}

/** Runs `run` with the app's clock (the cache reads it) stopped at `at`. */
async function at<T>(env: TestEnv, when: number, run: () => Promise<T>): Promise<T> {
  const clock = env.ctx.clock;
  env.ctx.clock = () => new Date(when);
  try {
    return await run();
  } finally {
    env.ctx.clock = clock;
  }
}

describeEachDatabase('cached sessions', (env) => {
  it('signs out at once in the process that signed out, for the cookie and the bearer token', async () => {
    const person = await signUpUser(env());
    const bearer = { authorization: `Bearer ${person.token}` };
    expect(await whoIs(env(), { cookie: person.cookie })).toBe(person.email);
    expect(await whoIs(env(), bearer)).toBe(person.email);
    const out = await env().request({ method: 'POST', url: '/api/auth/sign-out', payload: {}, headers: { cookie: person.cookie } });
    expect(out.statusCode).toBe(200);
    expect(await whoIs(env(), { cookie: person.cookie })).toBeNull();
    expect(await whoIs(env(), bearer)).toBeNull();
  });

  it('ends the other sessions at once on "sign out everywhere else" and on a new password', async () => {
    const person = await signUpUser(env());
    const elsewhere = await signIn(env(), person);
    expect(await whoIs(env(), elsewhere)).toBe(person.email);
    const ended = await env().request({ method: 'POST', url: '/api/me/sessions/sign-out-others', headers: { cookie: person.cookie }, payload: {} });
    expect(ended.statusCode).toBe(200);
    expect(await whoIs(env(), elsewhere)).toBeNull();

    const again = await signIn(env(), person);
    expect(await whoIs(env(), again)).toBe(person.email);
    const changed = await env().request({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { cookie: person.cookie },
      payload: { currentPassword: person.password, newPassword: 'Changed12' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await whoIs(env(), again)).toBeNull();
  });

  it('refuses a session ended by another process once the cache bound has passed', async () => {
    const person = await signUpUser(env());
    const bearer = { authorization: `Bearer ${person.token}` };
    const start = Date.now();
    expect(await at(env(), start, () => whoIs(env(), bearer))).toBe(person.email);
    // Another server process signs the session out: the row goes, and this process is not told.
    await env()
      .db()
      .delete(session)
      .where(eq(session.token, person.token.split('.')[0] ?? ''));
    const bound = env().config.sessionCacheMs;
    expect(bound).toBeGreaterThan(0);
    expect(await at(env(), start + bound - 1, () => whoIs(env(), bearer))).toBe(person.email);
    expect(await at(env(), start + bound, () => whoIs(env(), bearer))).toBeNull();
  });
});

describeEachDatabase(
  'sessions without the cache (SESSION_CACHE_MS=0)',
  (env) => {
    it('refuses a session ended by another process on the next request', async () => {
      const person = await signUpUser(env());
      const bearer = { authorization: `Bearer ${person.token}` };
      expect(await whoIs(env(), bearer)).toBe(person.email);
      await env()
        .db()
        .delete(session)
        .where(eq(session.token, person.token.split('.')[0] ?? ''));
      expect(await whoIs(env(), bearer)).toBeNull();
    });
  },
  { SESSION_CACHE_MS: '0' },
);
