import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/client.ts';
import { session, user } from '../../src/db/schema/auth.ts';
import type { TestEnv } from './test-app.ts';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  password: string;
  /** `cookie` header value carrying the session. */
  cookie: string;
  /** The session token for `Authorization: Bearer …`. */
  token: string;
}

function sessionCookie(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const session = all.find((c) => c.startsWith('better-auth.session_token='));
  if (!session) throw new Error(`no session cookie in ${JSON.stringify(all)}`);
  return session.split(';')[0] ?? '';
}

/** Signs up a fresh user through the real API and returns its session. */
export async function signUpUser(env: TestEnv, overrides: Partial<{ name: string; email: string; password: string }> = {}): Promise<TestUser> {
  const name = overrides.name ?? 'Test Buyer';
  const email = overrides.email ?? `user-${randomUUID()}@example.com`;
  const password = overrides.password ?? 'Passw0rd';
  const response = await env.request({ method: 'POST', url: '/api/auth/sign-up/email', payload: { name, email, password } });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const body = response.json() as { user: { id: string } };
  return {
    id: body.user.id,
    email,
    name,
    password,
    cookie: sessionCookie(response.headers['set-cookie']),
    token: String(response.headers['set-auth-token'] ?? ''),
  };
}

/** Request headers that carry the user's session cookie. */
export function asUser(signedIn: TestUser): { cookie: string } {
  return { cookie: signedIn.cookie };
}

export interface QuickBuyer {
  id: string;
  email: string;
  name: string;
  /** For `Authorization: Bearer …`; better-auth's bearer plugin signs an unsigned token itself. */
  token: string;
}

/**
 * Many signed-in buyers at once: users and sessions inserted in two statements, because signing up
 * hundreds of accounts through password hashing would take longer than the test itself.
 */
export async function insertBuyers(db: Db, count: number, name = 'Quick Buyer'): Promise<QuickBuyer[]> {
  const buyers = Array.from({ length: count }, () => ({
    id: randomUUID(),
    email: `quick-${randomUUID()}@example.com`,
    name,
    token: randomBytes(24).toString('base64url'),
  }));
  await db.insert(user).values(buyers.map((b) => ({ id: b.id, name: b.name, email: b.email, emailVerified: true })));
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000);
  await db.insert(session).values(buyers.map((b) => ({ id: randomUUID(), token: b.token, userId: b.id, expiresAt })));
  return buyers;
}

export function bearer(buyer: { token: string }): { authorization: string } {
  return { authorization: `Bearer ${buyer.token}` };
}
