import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import { sendApiNotFound } from './errors.ts';
import { pathOf } from './canonical-path.ts';

/**
 * An API path the router knows under other methods answers 405 with `Allow`, not the 404 of a path
 * that is not there (RFC 9110 §15.5.6), so a client that picked the wrong method is told which ones
 * exist. /api/auth/* stays a 404: only the better-auth endpoints on its allow-list exist
 * (modules/accounts/auth.routes.ts), and the rest must look absent whatever the method.
 */

interface RoutePattern {
  regex: RegExp;
  methods: Set<string>;
}

/**
 * `/api/product/:id` → /^\/api\/product\/[^/]+$/; a trailing `*` matches the rest of the path. A
 * plugin's root route (`/api/docs/`) is routed with and without its slash but announced once.
 */
function toRegex(url: string): RegExp {
  const source = url
    .split(/(:\w+|\*)/)
    .map((piece) => (piece === '*' ? '.*' : piece.startsWith(':') ? '[^/]+' : piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(url.endsWith('/') ? `^${source}?$` : `^${source}$`);
}

function patternsOf(routes: readonly RouteOptions[]): RoutePattern[] {
  const byUrl = new Map<string, Set<string>>();
  for (const route of routes) {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/auth/')) continue;
    const methods = byUrl.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    byUrl.set(route.url, methods);
  }
  return [...byUrl].map(([url, methods]) => ({ regex: toRegex(url), methods }));
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods the app answers on `path`, in a fixed order; empty when no route matches it. */
export function methodsOnPath(patterns: readonly RoutePattern[], path: string): string[] {
  const found = new Set<string>();
  for (const pattern of patterns) if (pattern.regex.test(path)) for (const method of pattern.methods) found.add(method);
  return [...found].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));
}

export interface ApiNotFoundOptions {
  /** Paths whose existence is itself private (operators' routes): asked before a 405 tells of them. */
  isPrivate(path: string): boolean;
  mayKnowPrivate(request: FastifyRequest): Promise<boolean>;
}

/**
 * The not-found answer of an API path. `routes` is the app's route table, complete by the time the
 * first request arrives; the patterns are built then, once.
 */
export function answerUnmatchedApiRequest(routes: readonly RouteOptions[], options: ApiNotFoundOptions) {
  let patterns: RoutePattern[] | null = null;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    patterns ??= patternsOf(routes);
    const path = pathOf(request);
    const allowed = methodsOnPath(patterns, path);
    // A route of this very method sent us here itself (a static file route whose file is missing):
    // the path has the method, it names nothing.
    if (allowed.length === 0 || allowed.includes(request.method)) return sendApiNotFound(reply);
    if (options.isPrivate(path) && !(await options.mayKnowPrivate(request))) return sendApiNotFound(reply);
    const allow = allowed.join(', ');
    throw new AppError('METHOD_NOT_ALLOWED', `${request.method} is not a method of this path; it answers ${allow}.`, { headers: { allow } });
  };
}
