import { randomUUID } from 'node:crypto';

export interface BenchSession {
  /** The Cookie header a signed-in browser would send. */
  cookie: string;
  /** A demo product, for the detail page. */
  productId: string;
}

/**
 * Signs up a fresh user through better-auth as the browser would (Origin set: better-auth refuses
 * cookie-carrying POSTs without it) and picks a featured demo product for the detail page.
 */
export async function openBenchSession(baseUrl: string): Promise<BenchSession> {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: 'Bench Buyer', email: `bench-${randomUUID()}@example.com`, password: 'Bench-password-1234' }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const token = response.headers.getSetCookie().map((line) => line.split(';')[0] ?? '').find((pair) => pair.startsWith('better-auth.session_token='));
  if (!token) throw new Error('sign-up answered without a better-auth.session_token cookie');

  const top = await fetch(`${baseUrl}/api/topproduct`);
  if (!top.ok) throw new Error(`GET /api/topproduct failed: ${top.status}`);
  const products = (await top.json()) as { _id: string }[];
  const productId = products[0]?._id;
  if (!productId) throw new Error('GET /api/topproduct returned no products: is the demo catalog seeded?');
  return { cookie: token, productId };
}
