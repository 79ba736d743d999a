import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The per-account limits a route definition can name (lib/define-route.ts `limit`). Each limit's
 * plugin counts exactly the routes whose definition names it, as the router matched them: no list of
 * URLs to keep in step, and no spelling of a URL that reaches a route without its limit.
 */
export type RouteLimit = 'orders' | 'downloads';

declare module 'fastify' {
  /** The route's limit in its Fastify config, where defineRoute puts it. */
  interface FastifyContextConfig {
    limit?: RouteLimit;
  }
}

/**
 * Runs `admit` before the handler of every route that names `limit`; a refusal it throws is the answer.
 * Every other request passes through without a promise.
 */
export function onLimitedRoute(app: FastifyInstance, limit: RouteLimit, admit: (request: FastifyRequest) => Promise<void>): void {
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.routeOptions.config.limit !== limit) return done();
    admit(request).then(() => done(), done);
  });
}
