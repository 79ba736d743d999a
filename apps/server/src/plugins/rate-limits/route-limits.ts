import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The limits on calls a route definition can name (lib/define-route.ts `rateLimit`): `orders`, per buyer
 * and per IP (order-limits.ts), and `downloads`, per account (export-limits.ts). Each limit's plugin
 * counts exactly the routes whose definition names it, as the router matched them: no list of URLs to
 * keep in step, and no spelling of a URL (nor the HEAD Fastify adds to a GET) that reaches a route
 * without its limit.
 */
export type RouteLimit = 'orders' | 'downloads';

declare module 'fastify' {
  /** The route's limit in its Fastify config, where defineRoute puts it. */
  interface FastifyContextConfig {
    rateLimit?: RouteLimit;
  }
}

/** Order requests one buyer may send per minute: a busy purchaser clicks far fewer, a script far more. */
export const ORDERS_PER_USER_PER_MINUTE = 20;
/** Order requests one IP may send per minute, for a whole office behind one address. */
export const ORDERS_PER_IP_PER_MINUTE = 120;

/**
 * CSV downloads one account may start per minute. Each one streams a whole catalog or order history
 * (100,000 rows and more) from the database: a person downloads a few, a script looping on them would
 * hold a connection and a core busy for everyone.
 */
export const EXPORTS_PER_USER_PER_MINUTE = 10;

/** The 429 each limit adds to the description of the routes that name it (plugins/openapi.ts adds Retry-After). */
export const ROUTE_LIMIT_DESCRIPTIONS: Record<RouteLimit, string> = {
  orders: `More than ${ORDERS_PER_USER_PER_MINUTE} order requests from you, or ${ORDERS_PER_IP_PER_MINUTE} from your network, in a minute (RATE_LIMIT)`,
  downloads: `More than ${EXPORTS_PER_USER_PER_MINUTE} CSV downloads this minute from this account`,
};

/**
 * Runs `admit` before the handler of every route that names `limit`; a refusal it throws is the answer.
 * Every other request passes through without a promise.
 */
export function onLimitedRoute(app: FastifyInstance, limit: RouteLimit, admit: (request: FastifyRequest) => Promise<void>): void {
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.routeOptions.config.rateLimit !== limit) return done();
    admit(request).then(() => done(), done);
  });
}
