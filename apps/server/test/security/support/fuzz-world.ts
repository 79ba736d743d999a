import { LIMITS } from '@bulkcart/contracts';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestEnv } from '../../helpers/test-app.ts';
import { signUpUser, type TestUser } from '../../helpers/accounts.ts';
import { seedProduct } from '../../helpers/products.ts';
import { takeFingerprint } from './db-snapshot.ts';

/**
 * The state a fuzz run works against, and what it has learned: which orders were answered 201 and not
 * cancelled since, and what product B's stock must be after the owner's accepted changes.
 */
export interface FuzzWorld {
  env: TestEnv;
  /** Sends every fuzzed request; owns product B. */
  fuzzer: TestUser;
  /** Owns product A, the one the fuzzer buys from. */
  seller: TestUser;
  productA: string;
  initialStockA: number;
  productB: string;
  expectedStockB: number;
  /** The fuzzer's orders answered 201 and not cancelled since: id → quantity. */
  liveOrders: Map<string, number>;
  cancelledOrders: Set<string>;
  /** Idempotency-Key → the order first created with it. */
  orderByKey: Map<string, string>;
  /** A live order of the seller: the fuzzer must never be able to cancel it. */
  sellerOrderId: string;
  fingerprint: string;
  /** Requests sent and statuses seen, per target. */
  stats: Map<string, Map<number, number>>;
  /** Where the time went: answering requests, and checking the database after each. */
  timing: { requestMs: number; fingerprintMs: number };
}

/**
 * The most stock a seller may hold: orders take from it and cancels give back exactly what they took,
 * so the books balance. Above the cap a cancel could not restore every unit (decision 007).
 */
export const STOCK_A = LIMITS.quantityMax;

export async function createFuzzWorld(env: TestEnv): Promise<FuzzWorld> {
  const [fuzzer, seller, maker] = await Promise.all([
    signUpUser(env, { name: 'Fuzz Client' }),
    signUpUser(env, { name: 'Fuzz Seller' }),
    signUpUser(env, { name: 'Fuzz Maker' }),
  ]);
  // A belongs to a third account: the seller's order on it is another user's order to the fuzzer, and
  // nobody may buy their own product (docs/decisions/012-order-workflow.md).
  const a = await seedProduct(env, maker, { mainquantity: STOCK_A, minquantity: 10, priceCents: 250 });
  const b = await seedProduct(env, fuzzer, { mainquantity: 10_000, minquantity: 5, priceCents: 990 });
  const sellerOrder = await env.request({ method: 'POST', url: '/api/order', headers: { cookie: seller.cookie }, payload: { productId: a.id, quantity: 10 } });
  if (sellerOrder.statusCode !== 201) throw new Error(`seller order failed: ${sellerOrder.body}`);
  return {
    env,
    fuzzer,
    seller,
    productA: a.id,
    initialStockA: STOCK_A,
    productB: b.id,
    expectedStockB: 10_000,
    // The seller's own order counts against A's stock like any other live order.
    liveOrders: new Map(),
    cancelledOrders: new Set(),
    orderByKey: new Map(),
    sellerOrderId: (sellerOrder.json() as { _id: string })._id,
    fingerprint: await takeFingerprint(env.db()),
    stats: new Map(),
    timing: { requestMs: 0, fingerprintMs: 0 },
  };
}

export function credentials(world: FuzzWorld, kind: 'cookie' | 'bearer'): Record<string, string> {
  return kind === 'cookie' ? { cookie: world.fuzzer.cookie } : { authorization: `Bearer ${world.fuzzer.token}` };
}

/** A JSON request written by hand, so the bytes sent are exactly the ones generated. */
export function jsonRequest(method: InjectOptions['method'], url: string, body: unknown, headers: Record<string, string>): InjectOptions {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return { method, url, headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }, payload };
}

function describeRequest(options: InjectOptions): string {
  const payload = typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload ?? null);
  const shown = payload.length > 300 ? `${payload.slice(0, 300)}… (${payload.length} chars)` : payload;
  return `${options.method} ${String(options.url).slice(0, 200)} ${JSON.stringify(options.headers ?? {}).slice(0, 200)} ${shown}`;
}

/**
 * Sends one fuzzed request and checks what must hold for every answer: no 5xx, an error body of the
 * one shape, and no change to the database when the request was refused or only read.
 */
export async function sendFuzzed(
  world: FuzzWorld,
  target: string,
  options: InjectOptions,
  allowChange: (response: LightMyRequestResponse) => boolean = (r) => r.statusCode < 400,
): Promise<LightMyRequestResponse> {
  const started = performance.now();
  const response = await world.env.request(options);
  const answered = performance.now();
  const byStatus = world.stats.get(target) ?? new Map<number, number>();
  byStatus.set(response.statusCode, (byStatus.get(response.statusCode) ?? 0) + 1);
  world.stats.set(target, byStatus);

  const what = `${target}: ${describeRequest(options)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  const before = world.fingerprint;
  world.fingerprint = await takeFingerprint(world.env.db());
  world.timing.requestMs += answered - started;
  world.timing.fingerprintMs += performance.now() - answered;
  expect(response.statusCode, what).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect(response.headers['content-type'], what).toMatch(/^application\/json/);
    expect(response.json(), what).toMatchObject({ error: { code: expect.any(String), title: expect.any(String), message: expect.any(String) } });
  }
  if (options.method === 'GET' || !allowChange(response)) expect(world.fingerprint, `database changed: ${what}`).toBe(before);
  return response;
}

/** Re-reads the fingerprint after a change made outside sendFuzzed (fixtures, clean-up). */
export async function refreshFingerprint(world: FuzzWorld): Promise<void> {
  world.fingerprint = await takeFingerprint(world.env.db());
}

export function formatStats(kind: string, world: Pick<FuzzWorld, 'stats' | 'timing'>): string {
  const lines = [...world.stats.entries()].map(([target, byStatus]) => {
    const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
    const statuses = [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    return `  ${target}: ${total} requests (${statuses})`;
  });
  const total = [...world.stats.values()].flatMap((m) => [...m.values()]).reduce((a, b) => a + b, 0);
  const timing = `${total} requests; ${Math.round(world.timing.requestMs / 1000)} s answering, ${Math.round(world.timing.fingerprintMs / 1000)} s checking the database`;
  return `[fuzz ${kind}] ${timing}\n${lines.join('\n')}`;
}

export function freshEmail(): string {
  return `fuzz-${randomUUID()}@example.com`;
}
