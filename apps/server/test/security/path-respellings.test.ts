import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { describeEachDatabase, TEST_ORIGIN } from '../helpers/test-app.ts';
import { signUpUser, type TestUser } from '../helpers/accounts.ts';
import { queryRows } from '../../src/db/rows.ts';
import { OTHER_SELLER, seedProduct } from '../helpers/products.ts';
import { FAILED_ATTEMPTS_PER_MINUTE } from '../../src/plugins/rate-limits/sign-in-limits.ts';
import { ORDERS_PER_USER_PER_MINUTE } from '../../src/plugins/rate-limits/route-limits.ts';
import { takeSnapshot, type DbSnapshot } from './support/db-snapshot.ts';
import { listenOnLoopback, sendRaw, type RawAnswer } from './support/raw-http.ts';
import { respell, type Respelling } from './support/respellings.ts';
import { CALLERS, clearFixtures, makeFixture, ROUTES, type Credentials } from './support/route-table.ts';

/**
 * docs/decisions/007-request-paths.md: the router, better-auth and every rule must see one path. Each route the server registers
 * (the authorization matrix's table) is sent over a real socket under other spellings; each answer is
 * the canonical one, with every rule applied, or a refusal that changes nothing. Never a bypass.
 */

const FOREIGN_ORIGIN = 'http://evil.example';
const CALLERS_UNDER_TEST = CALLERS.filter((c) => ['no credentials', "another user's cookie", "the owner's cookie"].includes(c.label));

function expectRefusal(answer: RawAnswer, what: string): void {
  expect([400, 404], what).toContain(answer.statusCode);
  expect(answer.json(), what).toMatchObject({ error: { code: expect.any(String), title: expect.any(String), message: expect.any(String) } });
}

/** Spellings a rule must treat as the path itself, then one that must be refused, for loops that mix them. */
function mixedSpellings(url: string): string[] {
  return [
    url,
    ...respell(url)
      .filter((r) => r.kind === 'same')
      .map((r) => r.url),
  ];
}

describeEachDatabase('every registered route under other spellings', (env) => {
  let port: number;
  let users: { owner: TestUser; other: TestUser; seller: TestUser };

  beforeAll(async () => {
    const [owner, other, seller] = await Promise.all([
      signUpUser(env(), { name: 'Respell Owner' }),
      signUpUser(env(), { name: 'Respell Other' }),
      signUpUser(env(), { name: 'Respell Seller' }),
    ]);
    users = { owner: owner!, other: other!, seller: seller! };
    port = await listenOnLoopback(env().app);
  });

  for (const route of ROUTES) {
    it(`${route.route}: the canonical answer or a refusal under every respelling`, async () => {
      await clearFixtures(env());
      let fixture = await makeFixture(env(), users);
      const spellings = respell(route.request(fixture).url as string);
      expect(spellings.length).toBeGreaterThan(8);
      // The canonical answer's caching depends on the route and the caller, not on the spelling.
      const canonicalCaching = new Map<string, string | undefined>();
      let fixtureUsed = false;
      // The database as the last refusal found and left it (proved equal after it), so the next
      // refusal compares against it without reading it again; anything let through forgets it.
      let unchangedSince: DbSnapshot | null = null;
      for (const [index, spelling] of spellings.entries()) {
        // A read leaves the fixture as it was, and so does a refusal (the snapshot below proves it);
        // a write let through under a canonical spelling may have consumed it (a delete, a cancel).
        if (fixtureUsed) {
          await clearFixtures(env());
          fixture = await makeFixture(env(), users);
          unchangedSince = null;
        }
        const base = route.request(fixture);
        const url = respell(base.url as string)[index]!.url;
        fixtureUsed = spelling.kind === 'same' && base.method !== 'GET';
        for (const caller of CALLERS_UNDER_TEST) {
          const what = `${route.route} as ${spelling.label} (${url}) with ${caller.label}`;
          const headers = { origin: TEST_ORIGIN, ...(base.headers as Credentials | undefined), ...caller.headers(fixture) };
          // A read is asked as written once per caller; a write's canonical answer is the one the matrix pins (no-store).
          if (!canonicalCaching.has(caller.label)) {
            unchangedSince = null;
            canonicalCaching.set(caller.label, base.method === 'GET' ? (await sendRaw(port, { ...base, headers })).headers['cache-control'] : 'no-store');
          }
          const before = spelling.kind === 'refused' ? (unchangedSince ?? (await takeSnapshot(env().db()))) : null;
          const answer = await sendRaw(port, { ...base, url, headers });
          expect(answer.headers['cache-control'], what).toBe(spelling.kind === 'same' ? canonicalCaching.get(caller.label) : 'no-store');
          if (spelling.kind === 'same') {
            unchangedSince = null;
            expect(answer.statusCode, `${what}: ${answer.body.slice(0, 200)}`).toBe(route.expected[caller.actor]);
          } else {
            expectRefusal(answer, what);
            const after = await takeSnapshot(env().db());
            expect(after, what).toEqual(before);
            unchangedSince = after;
          }
        }
      }
    });
  }

  it('refuses a cookie-carrying write from a foreign origin under every spelling of every write route', async () => {
    const writes = ROUTES.filter(
      (r) =>
        r.request({
          owner: users.owner,
          other: users.other,
          productId: 'p',
          orderId: 'o',
          saleId: 's',
          notificationId: 'n',
          spareOwnerToken: 't',
          verificationId: 'v',
          cartProductId: 'c',
          listId: 'l',
          importId: 'i',
        }).method !== 'GET',
    );
    expect(writes.length).toBeGreaterThan(5);
    for (const route of writes) {
      await clearFixtures(env());
      const fixture = await makeFixture(env(), users);
      const base = route.request(fixture);
      const spellings: Respelling[] = [{ label: 'as written', kind: 'same', url: base.url as string }, ...respell(base.url as string)];
      for (const spelling of spellings) {
        const what = `${route.route} as ${spelling.label} (${spelling.url})`;
        const before = await takeSnapshot(env().db());
        const answer = await sendRaw(port, { ...base, url: spelling.url, headers: { origin: FOREIGN_ORIGIN, cookie: fixture.owner.cookie } });
        const notOffered = route.expected.owner === 404;
        // A refused spelling may meet the cross-site check or the path refusal first: either refuses.
        if (spelling.kind === 'refused') expect([400, 403, 404], what).toContain(answer.statusCode);
        else if (notOffered) expectRefusal(answer, what);
        else expect(answer.statusCode, `${what}: ${answer.body}`).toBe(403);
        expect(await takeSnapshot(env().db()), what).toEqual(before);
      }
    }
  }, 180_000);

  it('applies the sign-up rules under every spelling: a one-letter name, a weak password and a javascript: photo create nothing', async () => {
    for (const url of mixedSpellings('/api/auth/sign-up/email')) {
      const email = `respell-${randomUUID()}@example.com`;
      const answer = await sendRaw(port, {
        method: 'POST',
        url,
        headers: { origin: TEST_ORIGIN },
        payload: { name: 'A', email, password: 'abcdef', image: 'javascript:alert(1)' },
      });
      expect(answer.statusCode, url).toBe(422);
      expect(answer.json(), url).toMatchObject({
        error: { code: 'VALIDATION', fieldErrors: { name: expect.any(Array), password: expect.any(Array), image: expect.any(Array) } },
      });
      const rows = await queryRows<{ n: number }>(env().db(), sql`SELECT count(*)::int AS n FROM "user" WHERE email = ${email}`);
      expect(rows[0]?.n, url).toBe(0);
    }
  });
});

describeEachDatabase(
  'rate limits under mixed spellings',
  (env) => {
    let port: number;
    beforeAll(async () => {
      port = await listenOnLoopback(env().app);
    });

    it('counts failed sign-ins under every spelling together: the next is a 429, and so is the right password', async () => {
      const user = await signUpUser(env());
      const spellings = mixedSpellings('/api/auth/sign-in/email');
      const signIn = (url: string, password: string) =>
        sendRaw(port, { method: 'POST', url, headers: { origin: TEST_ORIGIN }, payload: { email: user.email, password } });
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        const url = spellings[(i + 1) % spellings.length]!;
        expect((await signIn(url, `Wrong${i}Guess`)).statusCode, url).toBe(401);
      }
      for (const url of spellings) {
        expect((await signIn(url, 'Wrong9Guess')).statusCode, url).toBe(429);
        const right = await signIn(url, user.password);
        expect(right.statusCode, url).toBe(429);
        expect(right.headers['set-cookie'], url).toBeUndefined();
      }
    });

    it('counts orders under every spelling together: past the limit every spelling is a 429 and no order is made', async () => {
      const buyer = await signUpUser(env());
      const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 1_000, minquantity: 1 });
      const spellings = mixedSpellings('/api/order');
      const order = (url: string) =>
        sendRaw(port, { method: 'POST', url, headers: { origin: TEST_ORIGIN, cookie: buyer.cookie }, payload: { productId, quantity: 1 } });
      for (let i = 0; i < ORDERS_PER_USER_PER_MINUTE; i++) {
        const url = spellings[i % spellings.length]!;
        expect((await order(url)).statusCode, url).toBe(201);
      }
      for (const url of spellings) expect((await order(url)).statusCode, url).toBe(429);
      const rows = await queryRows<{ n: number }>(env().db(), sql`SELECT count(*)::int AS n FROM orders WHERE buyer_id = ${buyer.id}`);
      expect(rows[0]?.n).toBe(ORDERS_PER_USER_PER_MINUTE);
    });
  },
  { RATE_LIMIT: 'true' },
);
