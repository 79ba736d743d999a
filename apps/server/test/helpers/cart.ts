import type { Cart, CartAddAnswer } from '@bulkcart/contracts';
import type { TestEnv } from './test-app.ts';

/** Credentials of a test caller: a session cookie or a bearer token. */
export type Who = { cookie: string } | { authorization: string };

export async function getCart(env: TestEnv, who: Who): Promise<Cart> {
  const response = await env.request({ method: 'GET', url: '/api/cart', headers: who });
  if (response.statusCode !== 200) throw new Error(`GET /api/cart → ${response.statusCode} ${response.body}`);
  return response.json() as Cart;
}

export function putLine(env: TestEnv, who: Who, productId: string, quantity: unknown) {
  return env.request({ method: 'PUT', url: `/api/cart/lines/${productId}`, headers: who, payload: { quantity } });
}

/** Sets a line and fails the test unless the server took it. */
export async function setLine(env: TestEnv, who: Who, productId: string, quantity: number): Promise<Cart> {
  const response = await putLine(env, who, productId, quantity);
  if (response.statusCode !== 200) throw new Error(`PUT /api/cart/lines/${productId} → ${response.statusCode} ${response.body}`);
  return response.json() as Cart;
}

export function addLines(env: TestEnv, who: Who, body: unknown) {
  return env.request({ method: 'POST', url: '/api/cart/lines', headers: who, payload: body as Record<string, unknown> });
}

export async function addedResults(env: TestEnv, who: Who, body: unknown): Promise<CartAddAnswer['results']> {
  const response = await addLines(env, who, body);
  if (response.statusCode !== 200) throw new Error(`POST /api/cart/lines → ${response.statusCode} ${response.body}`);
  return (response.json() as CartAddAnswer).results;
}

export function checkout(env: TestEnv, who: Who, body: Record<string, unknown>, key: string | null) {
  return env.request({ method: 'POST', url: '/api/checkout', headers: { ...who, ...(key ? { 'idempotency-key': key } : {}) }, payload: body });
}
