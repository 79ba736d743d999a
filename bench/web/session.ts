import { randomUUID } from 'node:crypto';

export interface BenchSession {
  /** The Cookie header a signed-in browser would send. */
  cookie: string;
  /** A demo product, for the detail page. */
  productId: string;
}

/** Where the bench buyer's order ships: the cart page shows one order, as a returning buyer's does. */
const SHIP_TO = {
  company: 'Bench Traders',
  line1: '1 Test Street',
  city: 'Portland',
  region: 'OR',
  postalCode: '97201',
  country: 'US',
  phone: '+1 503 555 0100',
};

/**
 * Signs up a fresh user through better-auth as the browser would (Origin set: better-auth refuses
 * cookie-carrying POSTs without it), picks a featured demo product for the detail page, and buys it
 * once at its minimum, so the cart page has an order to show.
 */
export async function openBenchSession(baseUrl: string): Promise<BenchSession> {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: 'Bench Buyer', email: `bench-${randomUUID()}@example.com`, password: 'Bench-password-1234' }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const token = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('better-auth.session_token='));
  if (!token) throw new Error('sign-up answered without a better-auth.session_token cookie');

  const top = await fetch(`${baseUrl}/api/topproduct`);
  if (!top.ok) throw new Error(`GET /api/topproduct failed: ${top.status}`);
  const products = (await top.json()) as { _id: string; minquantity: number }[];
  const product = products[0];
  if (!product) throw new Error('GET /api/topproduct returned no products: is the demo catalog seeded?');
  const order = await fetch(`${baseUrl}/api/order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl, cookie: token },
    body: JSON.stringify({ productId: product._id, quantity: product.minquantity, shipTo: SHIP_TO }),
  });
  if (!order.ok) throw new Error(`the bench order failed: ${order.status} ${await order.text()}`);
  return { cookie: token, productId: product._id };
}
