import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { getSessionUser } from '../../modules/accounts/session.ts';
import { onLimitedRoute, ORDERS_PER_IP_PER_MINUTE, ORDERS_PER_USER_PER_MINUTE } from './route-limits.ts';
import { MINUTE_MS, refuse } from './refusal.ts';
import { SlidingWindowCounter } from './sliding-window-counter.ts';

/**
 * Order creation (the routes whose definition says `rateLimit: 'orders'`), per buyer and per IP, in this
 * process's memory: it sits on the purchase path, where a round trip per order would cost every buyer,
 * and its limits guard capacity, not passwords (see docs/decisions/002-accounts.md). Unlike sign-in,
 * every admitted attempt counts (a created order, a refused one, a replay): each one is a transaction,
 * and a buyer's real pace is a few a minute. Attempts are counted when admitted, not when answered, so
 * a burst of simultaneous requests cannot all slip under the limit before the first one finishes.
 */
export function registerOrderLimits(app: FastifyInstance, ctx: AppContext): void {
  const ordersByUser = new SlidingWindowCounter(ORDERS_PER_USER_PER_MINUTE, MINUTE_MS);
  const ordersByIp = new SlidingWindowCounter(ORDERS_PER_IP_PER_MINUTE, MINUTE_MS);

  onLimitedRoute(app, 'orders', async (request: FastifyRequest) => {
    // Memoised per request (session.ts): the route's requireUser does not ask the database again.
    const user = await getSessionUser(ctx.auth, request);
    const ipKey = `ip:${request.ip}`;
    const userKey = user ? `user:${user.id}` : null;
    const waitMs = Math.max(ordersByIp.waitMs(ipKey), userKey ? ordersByUser.waitMs(userKey) : 0);
    if (waitMs > 0) throw refuse(waitMs, 'orders');
    ordersByIp.record(ipKey);
    if (userKey) ordersByUser.record(userKey);
  });
}
