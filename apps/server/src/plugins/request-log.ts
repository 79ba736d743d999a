import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { resolvedUserId } from '../modules/accounts/session.ts';
import { HEALTH_ROUTES } from '../modules/health/health.routes.ts';

/**
 * One line per answered request, instead of Fastify's two ("incoming request" and "request
 * completed"). API calls are at info; files of the web app, the app page itself and health checks
 * are at debug, so a day's log is the API traffic a person wants to read.
 *
 * Nothing from headers or bodies is logged: cookies, bearer tokens and passwords never reach a line.
 * The query string is left out too (better-auth puts e-mail verification and reset tokens there), and
 * so is the one path segment better-auth uses for a token.
 */
const quietRequests = new WeakSet<FastifyRequest>();

/** For handlers outside the API (the web app's page fallback): log this request at debug. */
export function logAtDebug(request: FastifyRequest): void {
  quietRequests.add(request);
}

function isQuiet(request: FastifyRequest): boolean {
  if (quietRequests.has(request)) return true;
  const route = request.routeOptions.url;
  // Unmatched requests (no route) are API 404s unless the web app's fallback marked them above.
  if (route === undefined) return false;
  return HEALTH_ROUTES.includes(route) || !route.startsWith('/api/');
}

export function loggablePath(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  return path.replace(/^(\/api\/auth\/reset-password\/)[^/]+/, '$1:token');
}

/** Passed to Fastify as `logController`: its request lines, replaced by ours. */
export class AccessLog extends LogController {
  /** At trace only: for finding a request that never finishes (the shutdown test counts them). */
  override incomingRequest(request: FastifyRequest): void {
    request.log.trace({ method: request.method, path: loggablePath(request.url) }, 'incoming request');
  }

  override routeNotFound(): void {}

  override requestCompleted(_error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const userId = resolvedUserId(request);
    const fields = {
      method: request.method,
      path: loggablePath(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(userId ? { userId } : {}),
    };
    // A failure's stack is written once, at error, by the error handler (plugins/errors.ts).
    const message = `${fields.method} ${fields.path} ${fields.status}`;
    if (isQuiet(request)) request.log.debug(fields, message);
    else request.log.info(fields, message);
  }
}
