import { randomUUID } from 'node:crypto';
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

export function asUser(user: TestUser): { cookie: string } {
  return { cookie: user.cookie };
}
