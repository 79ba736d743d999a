import { expect, it } from 'vitest';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { seedProduct } from '../../../test/helpers/products.ts';
import { routeTable } from '../../lib/define-route.ts';
import { EXPORTS_PER_USER_PER_MINUTE } from './route-limits.ts';

function download(env: TestEnv, url: string, who: TestUser) {
  return env.request({ method: 'GET', url, headers: asUser(who) });
}

describeEachDatabase(
  'CSV download limits',
  (env) => {
    it('covers every CSV download the server registers, and nothing else', () => {
      const routes = routeTable(env().routes);
      const csvDownloads = routes.filter((r) => r.method === 'GET' && r.url.endsWith('.csv')).map((r) => r.url);
      const limited = routes.filter((r) => r.rateLimit === 'downloads').map((r) => r.url);
      expect(csvDownloads.length).toBeGreaterThanOrEqual(4);
      expect(limited.sort()).toEqual(csvDownloads.sort());
    });

    it(`refuses an account's download past ${EXPORTS_PER_USER_PER_MINUTE} a minute, across every CSV, with 429 and Retry-After; others still download`, async () => {
      const seller = await signUpUser(env(), { name: 'Export Seller' });
      const other = await signUpUser(env(), { name: 'Export Other' });
      await seedProduct(env(), seller, { name: 'Exported Widget' });
      for (let i = 0; i < EXPORTS_PER_USER_PER_MINUTE; i++) {
        const url = i % 2 === 0 ? '/api/my/catalog.csv' : '/api/seller/orders.csv?from=2026-01-01&to=2026-12-31';
        const answer = await download(env(), url, seller);
        expect(answer.statusCode, `${url}: ${answer.body.slice(0, 200)}`).toBe(200);
      }
      for (const url of ['/api/my/catalog.csv', '/api/seller/dashboard.csv', '/api/seller/orders.csv?from=2026-01-01&to=2026-12-31']) {
        const refused = await download(env(), url, seller);
        expect(refused.statusCode, url).toBe(429);
        expect(Number(refused.headers['retry-after']), url).toBeGreaterThanOrEqual(1);
        expect(refused.json(), url).toMatchObject({
          error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many downloads\. Try again in \d+ seconds\.$/) },
        });
      }
      expect((await download(env(), '/api/my/catalog.csv', other)).statusCode).toBe(200);
    });

    it('counts a HEAD of a CSV download like its GET (Fastify adds the HEAD with the GET route config)', async () => {
      const seller = await signUpUser(env(), { name: 'Head Seller' });
      for (let i = 0; i < EXPORTS_PER_USER_PER_MINUTE; i++) {
        expect((await env().request({ method: 'HEAD', url: '/api/my/catalog.csv', headers: asUser(seller) })).statusCode).toBe(200);
      }
      expect((await download(env(), '/api/my/catalog.csv', seller)).statusCode).toBe(429);
    });

    it('leaves a signed-out download to the route (401), counting nothing', async () => {
      for (let i = 0; i <= EXPORTS_PER_USER_PER_MINUTE; i++) {
        expect((await env().request({ method: 'GET', url: '/api/my/catalog.csv' })).statusCode).toBe(401);
      }
    });
  },
  { RATE_LIMIT: 'true' },
);
