import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, notFound } from '../lib/app-error.ts';
import { canonicalisePath, splitTarget } from '../lib/canonical-path.ts';

const refusedPath = new WeakMap<IncomingMessage, string>();

/**
 * Fastify's `rewriteUrl`: runs before the router, so every hook, handler, the router and the access log
 * see the canonical spelling (`request.originalUrl` keeps the one sent). A path with no canonical twin
 * is routed as sent and refused by the first hook (registerCanonicalPathRefusal).
 */
export function rewriteToCanonicalPath(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const { path, rest } = splitTarget(url);
  const verdict = canonicalisePath(path);
  if (!verdict.canonical) {
    refusedPath.set(req, verdict.reason);
    return url;
  }
  return verdict.path + rest;
}

/** Registered before every other hook, so no rule ever runs on a path that has no canonical form. */
export function registerCanonicalPathRefusal(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const reason = refusedPath.get(request.raw);
    // No store may keep the refusal: whatever the spelling named, it is not a cacheable page.
    if (reason) return done(new AppError('BAD_REQUEST', `The URL path is not valid (it contains ${reason}).`, { headers: { 'cache-control': 'no-store' } }));
    done();
  });
}

/**
 * `/api/lists/.` resolves to `/api/lists/`, which the router matches to `/api/lists/:id` with an empty
 * id. An empty named parameter names nothing: 404 before any handler asks who is calling, as for any
 * path that is not a route (the wildcard `*` may be empty: `/` is the web app's home).
 */
export function registerEmptyParamRefusal(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const params = request.params as Record<string, unknown> | undefined;
    if (params) {
      for (const name in params) {
        if (name !== '*' && params[name] === '') return done(notFound());
      }
    }
    done();
  });
}

/** The request's canonical path, without the query: what rules that are not bound to one route compare. */
export function pathOf(request: FastifyRequest): string {
  return splitTarget(request.url).path;
}

export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}
