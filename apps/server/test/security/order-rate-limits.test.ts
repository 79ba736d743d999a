import { expect, it } from 'vitest';
import { ORDERS_PER_IP_PER_MINUTE, ORDERS_PER_USER_PER_MINUTE } from '../../src/plugins/rate-limits/route-limits.ts';
import { describeEachDatabase, type TestEnv } from '../helpers/test-app.ts';
import { takeSnapshot } from './support/db-snapshot.ts';
import { bearer, insertBuyers } from '../helpers/accounts.ts';
import { seedProduct, readStock, OTHER_SELLER } from '../helpers/products.ts';

let ipCounter = 0;
/** A fresh client address per call, so each test decides which requests share an IP. */
function freshIp(): string {
  ipCounter += 1;
  return `10.${80 + (Math.floor(ipCounter / 250) % 100)}.${ipCounter % 250}.9`;
}

function order(env: TestEnv, buyer: { token: string }, productId: string, ip: string) {
  return env.request({ method: 'POST', url: '/api/order', headers: bearer(buyer), payload: { productId, quantity: 1 }, remoteAddress: ip });
}

function expectRateLimited(response: Awaited<ReturnType<typeof order>>): void {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.json()).toEqual({
    error: { code: 'RATE_LIMITED', title: 'Too many requests', message: `Too many orders. Try again in ${retryAfter} seconds.` },
  });
}

describeEachDatabase(
  'order creation rate limits',
  (env) => {
    it(`refuses a buyer's order request number ${ORDERS_PER_USER_PER_MINUTE + 1} within a minute with 429 and Retry-After, changing nothing`, async () => {
      const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 10_000, minquantity: 1 });
      const [buyer, neighbour] = await insertBuyers(env().db(), 2);
      for (let i = 0; i < ORDERS_PER_USER_PER_MINUTE; i++) {
        // From a new address each time: the limit follows the account, not the network.
        expect((await order(env(), buyer!, productId, freshIp())).statusCode).toBe(201);
      }
      const before = await takeSnapshot(env().db());
      expectRateLimited(await order(env(), buyer!, productId, freshIp()));
      expect(await takeSnapshot(env().db())).toEqual(before);
      expect(await readStock(env(), productId)).toBe(10_000 - ORDERS_PER_USER_PER_MINUTE);
      // Another buyer is not held back by it.
      expect((await order(env(), neighbour!, productId, freshIp())).statusCode).toBe(201);
    });

    it(`refuses request number ${ORDERS_PER_IP_PER_MINUTE + 1} from one IP, whichever buyer sends it`, async () => {
      const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 10_000, minquantity: 1 });
      const perBuyer = ORDERS_PER_USER_PER_MINUTE - 1;
      const buyers = await insertBuyers(env().db(), Math.ceil(ORDERS_PER_IP_PER_MINUTE / perBuyer) + 1);
      const ip = freshIp();
      for (let i = 0; i < ORDERS_PER_IP_PER_MINUTE; i++) {
        expect((await order(env(), buyers[Math.floor(i / perBuyer)]!, productId, ip)).statusCode).toBe(201);
      }
      const fresh = buyers[buyers.length - 1]!;
      expectRateLimited(await order(env(), fresh, productId, ip));
      // The same buyer from another network gets through.
      expect((await order(env(), fresh, productId, freshIp())).statusCode).toBe(201);
    });

    it('admits exactly the limit from a burst of simultaneous requests', async () => {
      const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 10_000, minquantity: 1 });
      const [buyer] = await insertBuyers(env().db(), 1);
      const answers = await Promise.all(Array.from({ length: ORDERS_PER_USER_PER_MINUTE * 2 }, () => order(env(), buyer!, productId, freshIp())));
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(ORDERS_PER_USER_PER_MINUTE);
      expect(statuses.filter((s) => s === 429)).toHaveLength(ORDERS_PER_USER_PER_MINUTE);
      expect(await readStock(env(), productId)).toBe(10_000 - ORDERS_PER_USER_PER_MINUTE);
    });
  },
  { RATE_LIMIT: 'true' },
);

describeEachDatabase('order creation without rate limits (RATE_LIMIT=false)', (env) => {
  it(`lets one buyer place more than ${ORDERS_PER_USER_PER_MINUTE} orders a minute when limits are off`, async () => {
    const { id: productId } = await seedProduct(env(), OTHER_SELLER, { mainquantity: 10_000, minquantity: 1 });
    const [buyer] = await insertBuyers(env().db(), 1);
    const ip = freshIp();
    for (let i = 0; i < ORDERS_PER_USER_PER_MINUTE + 5; i++) {
      expect((await order(env(), buyer!, productId, ip)).statusCode).toBe(201);
    }
  });
});
