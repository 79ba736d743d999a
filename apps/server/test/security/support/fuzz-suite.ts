import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, eq, isNull } from 'drizzle-orm';
import { BODY_LIMIT_BYTES } from '../../../src/app.ts';
import { orders } from '../../../src/db/schema/orders.ts';
import { describeEachDatabase } from '../../helpers/test-app.ts';
import { seedProduct, validProductBody } from '../../helpers/products.ts';
import { readStockLedger } from './db-snapshot.ts';
import {
  applyMutation,
  bodyMutation,
  hostileHeaderValue,
  hostileNumber,
  hostilePathSegment,
  respellingIndex,
  respelledOrAsWritten,
  hostileQuery,
  hostileString,
  isJsonContentType,
  rawBody,
} from './fuzz-arbitraries.ts';
import { createFuzzWorld, credentials, formatStats, freshEmail, jsonRequest, refreshFingerprint, sendFuzzed, type FuzzWorld } from './fuzz-world.ts';

export interface FuzzVolume {
  /** Generated requests per write endpoint and per id or query parameter. */
  runs: number;
  /** Bodies over the 100 KB limit, spread over the write endpoints. */
  oversizeRuns: number;
  /** Fixed seed, so a failure names a run that can be replayed; omit for a new one each time. */
  seed?: number;
}

const PRODUCT_FIELDS = Object.keys(validProductBody());
const auth = fc.constantFrom<'cookie' | 'bearer'>('cookie', 'bearer');

/**
 * The fuzz suite, declared once per database. test/security runs a small sample in the normal suite;
 * test/resilience runs the volume (docs/reliability.md). Properties run in order and share one database,
 * so the closing test can check the books: stock never below 0, and orders add up.
 */
export function defineFuzzSuite(volume: FuzzVolume): void {
  const options = (numRuns: number) => ({ numRuns, seed: volume.seed, endOnFailure: true });

  describeEachDatabase(`fuzzed requests, ${volume.runs} per endpoint and parameter`, (env) => {
    let world: FuzzWorld;

    beforeAll(async () => {
      world = await createFuzzWorld(env());
    });

    afterAll(() => {
      if (world) console.log(formatStats(env().kind, world));
    });

    it('POST /api/addproduct: mutated bodies', async () => {
      await fc.assert(
        fc.asyncProperty(bodyMutation(PRODUCT_FIELDS), auth, async (mutation, how) => {
          const body = applyMutation(validProductBody({ minquantity: 1 }), mutation);
          const response = await sendFuzzed(world, 'POST /api/addproduct body', jsonRequest('POST', '/api/addproduct', body, credentials(world, how)));
          if (response.statusCode === 201) {
            const created = response.json() as { _id: string; useremail: string; mainquantity: number };
            expect(created.useremail).toBe(world.fuzzer.email);
            expect(created.mainquantity).toBeGreaterThanOrEqual(0);
            // Keep the catalog small so every later snapshot stays cheap.
            const removed = await env().request({ method: 'DELETE', url: `/api/product/${created._id}`, headers: credentials(world, 'cookie') });
            expect(removed.statusCode).toBe(200);
            await refreshFingerprint(world);
          }
        }),
        options(volume.runs),
      );
    });

    it("PUT /api/updateproduct/{id}: mutated bodies on the fuzzer's own product", async () => {
      await fc.assert(
        fc.asyncProperty(bodyMutation(PRODUCT_FIELDS), auth, async (mutation, how) => {
          const body = applyMutation(validProductBody({ mainquantity: world.expectedStockB }), mutation);
          const response = await sendFuzzed(
            world,
            'PUT /api/updateproduct/{id} body',
            jsonRequest('PUT', `/api/updateproduct/${world.productB}`, body, credentials(world, how)),
          );
          if (response.statusCode === 200) {
            // JSON has no -0: a fuzzed -0 is stored and answered as 0 (Object.is would tell them apart).
            world.expectedStockB = (body as { mainquantity: number }).mainquantity + 0;
            expect(response.json()).toMatchObject({ mainquantity: world.expectedStockB, useremail: world.fuzzer.email, updatedby: world.fuzzer.email });
          }
        }),
        options(volume.runs),
      );
    });

    it("PATCH /api/products/{id}: stock adjustments on the fuzzer's own product", async () => {
      const quantity = fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: -3_000, max: 3_000 }) },
        { weight: 2, arbitrary: hostileNumber },
        { weight: 1, arbitrary: hostileString },
      );
      await fc.assert(
        fc.asyncProperty(quantity, bodyMutation(['quantity'], { intactWeight: 1 }), auth, async (q, mutation, how) => {
          const body = applyMutation({ quantity: q }, mutation);
          const response = await sendFuzzed(
            world,
            'PATCH /api/products/{id} body',
            jsonRequest('PATCH', `/api/products/${world.productB}`, body, credentials(world, how)),
          );
          if (response.statusCode === 200) {
            world.expectedStockB += (body as { quantity: number }).quantity;
            expect(response.json()).toMatchObject({ mainquantity: world.expectedStockB });
          }
          expect(world.expectedStockB).toBeGreaterThanOrEqual(0);
        }),
        options(volume.runs),
      );
    });

    it('POST /api/order: fuzzed bodies and Idempotency-Key headers', async () => {
      const productId = fc.oneof({ weight: 6, arbitrary: fc.constant('A') }, { weight: 1, arbitrary: fc.uuid() }, { weight: 2, arbitrary: notAProductId() });
      const quantity = fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: 10, max: 400 }) },
        { weight: 3, arbitrary: hostileNumber },
        { weight: 1, arbitrary: hostileString },
      );
      const key = fc.oneof(
        { weight: 3, arbitrary: fc.constant<null>(null) },
        { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{8,128}$/) },
        { weight: 2, arbitrary: fc.nat().map((n) => ({ reuse: n })) },
        { weight: 1, arbitrary: hostileHeaderValue },
      );
      await fc.assert(
        fc.asyncProperty(
          productId,
          quantity,
          bodyMutation(['productId', 'quantity'], { intactWeight: 2 }),
          key,
          auth,
          async (pid, q, mutation, keyChoice, how) => {
            const body = applyMutation({ productId: pid === 'A' ? world.productA : pid, quantity: q }, mutation);
            const usedKeys = [...world.orderByKey.keys()];
            const idempotencyKey =
              typeof keyChoice === 'object' && keyChoice !== null ? (usedKeys[keyChoice.reuse % Math.max(1, usedKeys.length)] ?? null) : keyChoice;
            const headers = { ...credentials(world, how), ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }) };
            const response = await sendFuzzed(
              world,
              'POST /api/order body and Idempotency-Key',
              jsonRequest('POST', '/api/order', body, headers),
              (r) => r.statusCode === 201,
            );
            if (response.statusCode === 201) {
              const order = response.json() as { _id: string; quantity: number };
              expect(idempotencyKey === null || !world.orderByKey.has(idempotencyKey), 'a used key must replay, not create').toBe(true);
              world.liveOrders.set(order._id, order.quantity);
              if (idempotencyKey !== null) world.orderByKey.set(idempotencyKey, order._id);
            }
            if (response.statusCode === 200) {
              // A replay answers the first order again and creates nothing (checked by sendFuzzed).
              expect(idempotencyKey && world.orderByKey.get(idempotencyKey)).toBe((response.json() as { _id: string })._id);
            }
          },
        ),
        options(volume.runs),
      );
    });

    it('DELETE /api/order/{id}: own, cancelled, foreign and fuzzed ids', async () => {
      const choice = fc.oneof(
        { weight: 3, arbitrary: fc.nat().map((n) => ({ own: n })) },
        { weight: 1, arbitrary: fc.nat().map((n) => ({ cancelled: n })) },
        { weight: 1, arbitrary: fc.constant({ foreign: true }) },
        { weight: 4, arbitrary: hostilePathSegment.map((segment) => ({ segment })) },
      );
      await fc.assert(
        fc.asyncProperty(choice, auth, async (c, how) => {
          const live = [...world.liveOrders.keys()];
          const cancelled = [...world.cancelledOrders];
          let id: string;
          let expected: number | null = null;
          if ('own' in c && live.length > 0) [id, expected] = [live[c.own % live.length]!, 200];
          else if ('cancelled' in c && cancelled.length > 0) [id, expected] = [cancelled[c.cancelled % cancelled.length]!, 404];
          else if ('foreign' in c) [id, expected] = [world.sellerOrderId, 404];
          else id = 'segment' in c ? c.segment : 'nothing-to-pick';
          const response = await sendFuzzed(world, 'DELETE /api/order/{id} id', {
            method: 'DELETE',
            url: `/api/order/${id}`,
            headers: credentials(world, how),
          });
          if (expected !== null) expect(response.statusCode).toBe(expected);
          if (response.statusCode === 200) {
            expect(world.liveOrders.has(id)).toBe(true);
            world.liveOrders.delete(id);
            world.cancelledOrders.add(id);
          }
        }),
        options(volume.runs),
      );
    });

    it('DELETE /api/product/{id}: a stranger’s, a throwaway own and fuzzed ids', async () => {
      const choice = fc.oneof(
        { weight: 1, arbitrary: fc.constant<'foreign'>('foreign') },
        { weight: 1, arbitrary: fc.constant<'own'>('own') },
        { weight: 5, arbitrary: hostilePathSegment },
      );
      await fc.assert(
        fc.asyncProperty(choice, auth, async (c, how) => {
          let id = c;
          if (c === 'foreign') id = world.productA;
          if (c === 'own') {
            id = (await seedProduct(env(), world.fuzzer, { mainquantity: 3 })).id;
            await refreshFingerprint(world);
          }
          const response = await sendFuzzed(world, 'DELETE /api/product/{id} id', {
            method: 'DELETE',
            url: `/api/product/${id}`,
            headers: credentials(world, how),
          });
          if (c === 'foreign') expect(response.statusCode).toBe(403);
          if (c === 'own') expect(response.statusCode).toBe(200);
        }),
        options(volume.runs),
      );
    });

    for (const route of [
      { name: 'GET /api/product/{id} id', method: 'GET' as const, url: (id: string) => `/api/product/${id}` },
      { name: 'PUT /api/updateproduct/{id} id', method: 'PUT' as const, url: (id: string) => `/api/updateproduct/${id}`, body: () => validProductBody() },
      { name: 'PATCH /api/products/{id} id', method: 'PATCH' as const, url: (id: string) => `/api/products/${id}`, body: () => ({ quantity: 1 }) },
      { name: 'POST /api/my/products/{id}/relist id', method: 'POST' as const, url: (id: string) => `/api/my/products/${id}/relist` },
    ]) {
      it(`${route.name}: fuzzed ids and a stranger's product, under respelled paths`, async () => {
        const id = fc.oneof({ weight: 1, arbitrary: fc.constant('A') }, { weight: 6, arbitrary: hostilePathSegment });
        await fc.assert(
          fc.asyncProperty(id, auth, respellingIndex, async (segment, how, spellingAt) => {
            const target = segment === 'A' ? world.productA : segment;
            const { url, kind } = respelledOrAsWritten(route.url(target), spellingAt);
            const response = await sendFuzzed(world, route.name, jsonRequest(route.method, url, route.body?.(), credentials(world, how)));
            if (segment === 'A' && kind === 'same') expect(response.statusCode, url).toBe(route.method === 'GET' ? 200 : 403);
            else if (segment !== 'A' || route.method !== 'GET')
              expect(response.statusCode, 'a fuzzed id never names a product the fuzzer may change').toBeGreaterThanOrEqual(400);
          }),
          options(volume.runs),
        );
      });
    }

    for (const route of [
      { name: 'GET /api/products/{email}', path: '/api/products/' },
      { name: 'GET /api/orders/{email}', path: '/api/orders/' },
    ]) {
      it(`${route.name}: fuzzed emails and query parameters`, async () => {
        const email = fc.oneof(
          { weight: 3, arbitrary: fc.constant('own') },
          { weight: 1, arbitrary: fc.constant('seller') },
          { weight: 1, arbitrary: fc.constant('OWN-UPPER') },
          { weight: 3, arbitrary: hostilePathSegment },
        );
        await fc.assert(
          fc.asyncProperty(email, hostileQuery, auth, async (e, query, how) => {
            const segment =
              e === 'own'
                ? encodeURIComponent(world.fuzzer.email)
                : e === 'OWN-UPPER'
                  ? encodeURIComponent(world.fuzzer.email.toUpperCase())
                  : e === 'seller'
                    ? encodeURIComponent(world.seller.email)
                    : e;
            const response = await sendFuzzed(world, `${route.name} email and query`, {
              method: 'GET',
              url: `${route.path}${segment}${query}`,
              headers: credentials(world, how),
            });
            if (e === 'seller') expect([403, 422]).toContain(response.statusCode);
            if (response.statusCode === 200) expect(Array.isArray(response.json())).toBe(true);
          }),
          options(volume.runs),
        );
      });
    }

    it('GET /api/allproduct and /api/topproduct: fuzzed query parameters', async () => {
      await fc.assert(
        fc.asyncProperty(
          hostileQuery,
          fc.constantFrom('/api/allproduct', '/api/allproduct', '/api/topproduct'),
          fc.constantFrom<'cookie' | 'bearer' | 'none'>('cookie', 'bearer', 'none'),
          async (query, path, how) => {
            const headers = how === 'none' ? {} : credentials(world, how);
            const response = await sendFuzzed(world, 'GET /api/allproduct query', { method: 'GET', url: `${path}${query}`, headers });
            if (response.statusCode === 200) expect(Array.isArray(response.json())).toBe(true);
          },
        ),
        options(volume.runs),
      );
    });

    it('POST /api/auth/sign-up/email: mutated bodies', async () => {
      await fc.assert(
        fc.asyncProperty(bodyMutation(['name', 'email', 'password', 'image'], { changeWeight: 2 }), async (mutation) => {
          const body = applyMutation({ name: 'Fuzzed Person', email: freshEmail(), password: 'Passw0rd', image: '/images/default-avatar.svg' }, mutation);
          const response = await sendFuzzed(world, 'POST /api/auth/sign-up/email body', jsonRequest('POST', '/api/auth/sign-up/email', body, {}));
          if (response.statusCode === 200) expect(response.json()).toMatchObject({ user: { email: expect.any(String) } });
        }),
        options(volume.runs),
      );
    });

    it('POST /api/auth/sign-in/email: mutated bodies', async () => {
      await fc.assert(
        fc.asyncProperty(bodyMutation(['email', 'password'], { changeWeight: 2 }), fc.boolean(), async (mutation, rightPassword) => {
          const body = applyMutation({ email: world.fuzzer.email, password: rightPassword ? world.fuzzer.password : 'Wrong0ne' }, mutation);
          await sendFuzzed(world, 'POST /api/auth/sign-in/email body', jsonRequest('POST', '/api/auth/sign-in/email', body, {}));
        }),
        options(volume.runs),
      );
    });

    it('every write endpoint: malformed JSON (400) and bodies that are not JSON (415)', async () => {
      const endpoints = writeEndpoints(() => world);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...endpoints).chain((e) => rawBody(JSON.stringify(e.valid())).map((raw) => ({ e, raw }))),
          auth,
          async ({ e, raw }, how) => {
            const response = await sendFuzzed(world, 'raw bodies on write endpoints', {
              method: e.method,
              url: e.url(),
              headers: { ...(e.signedIn ? credentials(world, how) : {}), 'content-type': raw.contentType },
              payload: raw.body,
            });
            if (response.statusCode === 200 && (e.method === 'PATCH' || e.method === 'PUT')) {
              // A body that still parsed (a byte-order mark is skipped) was a real change to product B.
              const sent = JSON.parse(raw.body.replace(/^\uFEFF/, '')) as { quantity?: number; mainquantity?: number };
              world.expectedStockB = e.method === 'PATCH' ? world.expectedStockB + (sent.quantity ?? 0) : (sent.mainquantity ?? NaN);
            }
            if (raw.body.length > 0 && !isJsonContentType(raw.contentType)) expect(response.statusCode).toBe(415);
            else if (isJsonContentType(raw.contentType) && raw.body.trim().length > 0 && !parsesAsJson(raw.body)) expect(response.statusCode).toBe(400);
          },
        ),
        options(volume.runs),
      );
    });

    it('every write endpoint: a body over 100 KB is refused with 413', async () => {
      const endpoints = writeEndpoints(() => world);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...endpoints),
          fc.integer({ min: BODY_LIMIT_BYTES + 1, max: 4 * BODY_LIMIT_BYTES }),
          fc.boolean(),
          async (e, size, asValidJson) => {
            const padding = 'x'.repeat(size);
            const payload = asValidJson ? JSON.stringify({ ...e.valid(), padding }) : padding;
            const response = await sendFuzzed(world, 'bodies over 100 KB', {
              method: e.method,
              url: e.url(),
              headers: { ...(e.signedIn ? credentials(world, 'cookie') : {}), 'content-type': 'application/json' },
              payload,
            });
            expect(response.statusCode).toBe(413);
            expect(response.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
          },
        ),
        options(volume.oversizeRuns),
      );
    });

    it('afterwards: no stock below 0, orders add up, every 201 order is there and no cancelled one came back', async () => {
      const ledger = await readStockLedger(env().db());
      expect(ledger.negative).toEqual([]);
      expect((ledger.stockByProduct.get(world.productA) ?? -1) + (ledger.liveByProduct.get(world.productA) ?? 0)).toBe(world.initialStockA);
      expect(ledger.stockByProduct.get(world.productB)).toBe(world.expectedStockB);
      const live = await env()
        .db()
        .select({ id: orders.id, quantity: orders.quantity })
        .from(orders)
        .where(and(eq(orders.buyerId, world.fuzzer.id), isNull(orders.cancelledAt)));
      expect(new Map(live.map((o) => [o.id, o.quantity]))).toEqual(world.liveOrders);
      // The suite must have exercised both sides, or the books above would prove little.
      expect(world.liveOrders.size + world.cancelledOrders.size).toBeGreaterThan(0);
    });
  });
}

function notAProductId() {
  return fc.oneof(hostileString, hostileNumber, fc.constant(null));
}

/** Fastify's parser skips a leading byte-order mark, as JSON from some Windows tools carries one. */
function parsesAsJson(body: string): boolean {
  try {
    JSON.parse(body.replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}

interface WriteEndpoint {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url(): string;
  valid(): Record<string, unknown>;
  signedIn: boolean;
}

function writeEndpoints(world: () => FuzzWorld): WriteEndpoint[] {
  return [
    { method: 'POST', url: () => '/api/addproduct', valid: () => validProductBody(), signedIn: true },
    {
      method: 'PUT',
      url: () => `/api/updateproduct/${world().productB}`,
      valid: () => validProductBody({ mainquantity: world().expectedStockB }),
      signedIn: true,
    },
    { method: 'PATCH', url: () => `/api/products/${world().productB}`, valid: () => ({ quantity: 0 }), signedIn: true },
    { method: 'POST', url: () => '/api/order', valid: () => ({ productId: world().productA, quantity: 0 }), signedIn: true },
    { method: 'DELETE', url: () => `/api/order/${world().sellerOrderId}`, valid: () => ({}), signedIn: true },
    { method: 'POST', url: () => '/api/auth/sign-up/email', valid: () => ({ name: 'Raw Body', email: freshEmail(), password: 'short' }), signedIn: false },
    { method: 'POST', url: () => '/api/auth/sign-in/email', valid: () => ({ email: world().fuzzer.email, password: 'Wrong0ne' }), signedIn: false },
  ];
}
