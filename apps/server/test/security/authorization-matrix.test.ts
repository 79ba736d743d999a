import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/test-app.ts';
import { signUpUser, type TestUser } from '../helpers/accounts.ts';
import { takeSnapshot } from './support/db-snapshot.ts';
import { routeTable } from '../../src/lib/define-route.ts';
import { authExpectedBy, CALLERS, clearFixtures, listApiRoutes, makeFixture, normaliseRoute, ROUTES, type Credentials } from './support/route-table.ts';

/**
 * Every /api route × {signed out, another user, the owner}. Each refusal must leave the database
 * byte-for-byte as it was; each permitted write must visibly change it (so the check could fail).
 */

describeEachDatabase('authorization matrix', (env) => {
  let owner: TestUser;
  let other: TestUser;
  let seller: TestUser;

  beforeAll(async () => {
    [owner, other, seller] = await Promise.all([
      signUpUser(env(), { name: 'Matrix Owner' }),
      signUpUser(env(), { name: 'Matrix Other' }),
      signUpUser(env(), { name: 'Matrix Seller' }),
    ]);
  });

  for (const route of ROUTES) {
    it(`${route.route}: ${route.expected.signedOut} signed out, ${route.expected.other} another user, ${route.expected.owner} the owner`, async () => {
      await clearFixtures(env());
      const fixture = await makeFixture(env(), { owner, other, seller });
      for (const caller of CALLERS) {
        const before = await takeSnapshot(env().db());
        const base = route.request(fixture);
        const response = await env().request({ ...base, headers: { ...(base.headers as Credentials | undefined), ...caller.headers(fixture) } });
        const after = await takeSnapshot(env().db());
        const what = `${route.route} with ${caller.label}: ${response.body.slice(0, 300)}`;

        expect(response.statusCode, what).toBe(route.expected[caller.actor]);
        expect(response.statusCode, what).toBeLessThan(500);
        if (response.statusCode >= 400) {
          expect(response.json(), what).toMatchObject({ error: { code: expect.any(String), title: expect.any(String), message: expect.any(String) } });
        }
        const mustBeUnchanged = response.statusCode >= 400 || caller.actor === 'signedOut' || route.readOnly?.[caller.actor] === true;
        if (mustBeUnchanged) expect(after, what).toEqual(before);
        else expect(after, `${what} (a permitted write must show in the database)`).not.toEqual(before);
        route.check?.(fixture, caller.actor, response);
      }
    });
  }

  it('covers every /api route the server registers', () => {
    const covered = new Set(ROUTES.map((r) => normaliseRoute(r.route.split(' (')[0] ?? '')));
    const registered = listApiRoutes(env().routes);
    // The table must really hold the routes, or "nothing missing" would prove nothing.
    expect(registered).toEqual(expect.arrayContaining(['POST /api/order', 'GET /api/orders/:param', 'DELETE /api/order/:param', 'PATCH /api/products/:param']));
    expect(registered.filter((r) => !covered.has(r))).toEqual([]);
  });

  it("expects of every route what its definition's `auth` declares (lib/define-route.ts)", () => {
    const defined = routeTable(env().routes);
    expect(defined.length).toBeGreaterThan(60);
    const mismatches = defined.flatMap((route) => {
      const declared = route.auth === 'public' || route.auth === 'optional' ? 'anyone' : route.auth;
      const key = normaliseRoute(`${route.method} ${route.url}`);
      const cases = ROUTES.filter((c) => normaliseRoute(c.route.split(' (')[0] ?? '') === key);
      if (cases.length === 0) return [`${key}: no case in route-table.ts`];
      return cases
        .filter((c) => authExpectedBy(c.expected) !== declared)
        .map((c) => `${c.route}: defined ${route.auth}, the case expects ${authExpectedBy(c.expected)}`);
    });
    expect(mismatches).toEqual([]);
  });
});
