import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { getSessionUser } from '../../modules/accounts/session.ts';
import { MINUTE_MS, refuse } from './refusal.ts';
import { SlidingWindowCounter } from './sliding-window-counter.ts';

/** Order requests one buyer may send per minute: a busy purchaser clicks far fewer, a script far more. */
export const ORDERS_PER_USER_PER_MINUTE = 20;
/** Order requests one IP may send per minute, for a whole office behind one address. */
export const ORDERS_PER_IP_PER_MINUTE = 120;

/** Buy Now and the checkout. Bound to the route the router matched, so no spelling of the URL reaches the route without it. */
function isOrderCreation(request: FastifyRequest): boolean {
  return request.method === 'POST' && (request.routeOptions.url === '/api/order' || request.routeOptions.url === '/api/checkout');
}

/**
 * Order creation, per buyer and per IP, in this process's memory: it sits on the purchase path, where a
 * round trip per order would cost every buyer, and its limits guard capacity, not passwords (see
 * docs/decisions/002-accounts.md). Unlike sign-in, every admitted attempt counts (a created order, a
 * refused one, a replay): each one is a transaction, and a buyer's real pace is a few a minute.
 * Attempts are counted when admitted, not when answered, so a burst of simultaneous requests cannot all
 * slip under the limit before the first one finishes.
 */
export function registerOrderLimits(app: FastifyInstance, ctx: AppContext): void {
  const ordersByUser = new SlidingWindowCounter(ORDERS_PER_USER_PER_MINUTE, MINUTE_MS);
  const ordersByIp = new SlidingWindowCounter(ORDERS_PER_IP_PER_MINUTE, MINUTE_MS);

  const admit = async (request: FastifyRequest): Promise<void> => {
    // Memoised per request (session.ts): the route's requireUser does not ask the database again.
    const user = await getSessionUser(ctx.auth, request);
    const ipKey = `ip:${request.ip}`;
    const userKey = user ? `user:${user.id}` : null;
    const waitMs = Math.max(ordersByIp.waitMs(ipKey), userKey ? ordersByUser.waitMs(userKey) : 0);
    if (waitMs > 0) throw refuse(waitMs, 'orders');
    ordersByIp.record(ipKey);
    if (userKey) ordersByUser.record(userKey);
  };
  // Every request passes through; only order creation waits for a promise.
  app.addHook('preHandler', (request, _reply, done) => {
    if (!isOrderCreation(request)) return done();
    admit(request).then(() => done(), done);
  });
}
