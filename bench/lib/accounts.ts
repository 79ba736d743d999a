import { randomUUID } from 'node:crypto';
import { httpRequest } from './http.ts';

export interface BenchUser {
  id: string;
  name: string;
  email: string;
  token: string;
}

/**
 * A real account through the accounts API. The browser-style Origin header is what better-auth asks
 * of a sign-up; afterwards the bearer token from `set-auth-token` needs none.
 */
export async function signUp(baseUrl: string, name: string, emailPrefix = 'bench'): Promise<BenchUser> {
  const email = `${emailPrefix}-${randomUUID().slice(0, 12)}@bench.test`;
  const answer = await httpRequest(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: baseUrl },
    body: JSON.stringify({ name, email, password: 'Bench-password-1' }),
  });
  const token = answer.headers['set-auth-token'];
  if (answer.status !== 200 || typeof token !== 'string') {
    throw new Error(`sign-up failed: ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
  }
  const body = JSON.parse(answer.body.toString('utf8')) as { user: { id: string } };
  return { id: body.user.id, name, email, token };
}

/** `count` accounts, a few at a time: password hashing is deliberately slow. */
export async function signUpMany(baseUrl: string, count: number, prefix: string): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let start = 0; start < count; start += 4) {
    const batch = Array.from({ length: Math.min(4, count - start) }, (_, i) =>
      signUp(baseUrl, `${prefix} ${start + i + 1}`, prefix.toLowerCase().replace(/\W+/g, '-')),
    );
    users.push(...(await Promise.all(batch)));
  }
  return users;
}

export function bearer(user: BenchUser): Record<string, string> {
  return { authorization: `Bearer ${user.token}` };
}
