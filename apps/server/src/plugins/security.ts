import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';
import { AppError } from '../lib/app-error.ts';
import type { Auth } from '../modules/accounts/auth.ts';
import { isAuthenticatedByBearer } from '../modules/accounts/session.ts';
import { isApiPath, pathOf } from './canonical-path.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** better-auth's route checks Origin itself, by its own rules (trusted origins, Sec-Fetch headers). */
function isAuthRoute(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith('/api/auth/') ?? false;
}

/**
 * The headers helmet sets for these options, worked out once. helmet's middleware (and @fastify/helmet,
 * which builds a new one for every request) parses the options, the CSP directives included, each time
 * it runs; the headers never change, so every request gets the same list.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader() {},
    getHeader() {
      return undefined;
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

function helmetOptions(config: Config): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        // data: only for images (daisyUI's spinner mask and texture); images cannot run script.
        imgSrc: ["'self'", 'https:', 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'", ...(config.google ? ['https:', 'http://127.0.0.1:*', 'http://localhost:*'] : [])],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        ...(config.isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * Security headers, and refusal of cross-site writes that ride on the session cookie. A client whose
 * bearer token authenticates it carries no ambient credential, so it needs no Origin. Any other
 * Authorization header (Basic, a forged token) proves nothing: a browser may attach Basic credentials
 * by itself, and the cookie's session would be the one used.
 *
 * The hooks take a callback rather than being async: they run on every request, and most return at
 * once, so they allocate no promise for that.
 */
export async function registerSecurity(app: FastifyInstance, config: Config, auth: Auth): Promise<void> {
  const headers = helmetHeaders(helmetOptions(config));
  // Among the answer's own headers, first: a route's own header of the same name (e.g. a document
  // preview's CSP) replaces it, and error answers keep them.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  const refuseCrossSite = crossSiteRefusal(config, auth);
  app.addHook('onRequest', (request, _reply, done) => {
    // Operators' routes run this check themselves, after their own 404 to everyone else (admin.routes.ts).
    if (!mayRideOnCookie(request) || isAdminRoute(request)) return done();
    refuseCrossSite(request).then(() => done(), done);
  });

  registerCors(app, new Set(config.corsOrigins));

  // API answers may carry personal data and must never sit in a shared cache.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control') && isApiPath(pathOf(request))) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

/** A write to the API that carries a cookie: the only kind the cross-site check has anything to say about. */
function mayRideOnCookie(request: FastifyRequest): boolean {
  return WRITE_METHODS.has(request.method) && request.headers.cookie !== undefined;
}

/** /api/admin/…: to anyone but an operator the route does not exist, so its 404 comes first. */
function isAdminRoute(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith('/api/admin/') ?? false;
}

/** Refuses a write that rides on the session cookie from a foreign origin (see registerSecurity). */
export function crossSiteRefusal(config: Config, auth: Auth): (request: FastifyRequest) => Promise<void> {
  const trusted = new Set([...config.trustedOrigins, ...config.corsOrigins]);
  return async (request) => {
    if (!WRITE_METHODS.has(request.method) || !isApiPath(pathOf(request)) || isAuthRoute(request)) return;
    if (!request.headers.cookie) return;
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (origin && trusted.has(origin)) return;
    if (await isAuthenticatedByBearer(auth, request)) return;
    throw new AppError('FORBIDDEN', 'Cross-site request refused.');
  };
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * CORS is closed unless CORS_ORIGINS names an origin: the app is same-origin and needs none. Listed
 * origins get credentialed access; everyone else gets no CORS headers, so browsers refuse to read.
 */
function registerCors(app: FastifyInstance, allowed: Set<string>): void {
  if (allowed.size === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || !allowed.has(origin) || !isApiPath(pathOf(request))) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('vary', 'Origin');
    if (request.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE');
      reply.header('access-control-allow-headers', 'content-type, authorization, idempotency-key');
      reply.header('access-control-max-age', '600');
      return reply.status(204).send();
    }
  });
}
