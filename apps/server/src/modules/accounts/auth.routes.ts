import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { signInInputSchema, signUpInputSchema, type ErrorCode } from '@bulkcart/contracts';
import { AppError } from '../../lib/app-error.ts';
import { parseInput } from '../../lib/validate.ts';
import { pathOf } from '../../plugins/canonical-path.ts';
import { attachAuthLogger, GOOGLE_PROVIDER_ID, type Auth } from './auth.ts';
import { revokeIfPastAbsoluteLifetime } from './session.ts';

export const SIGN_UP_PATH = '/api/auth/sign-up/email';
export const SIGN_IN_PATH = '/api/auth/sign-in/email';

/**
 * The better-auth endpoints the product uses: the sign-up and sign-in forms, Logout, and Google
 * sign-in (its start, and the callback Google sends the browser back to). better-auth serves many
 * more (session reads that hand out the session token, change-password, account linking, profile
 * updates…); each would give a stolen session or a script more than the app needs, and each would need
 * our rules in front of it. So every other path under /api/auth answers our 404, and the check is on
 * the canonical path (plugins/canonical-path.ts), so no respelling reaches one either. Whoever adds a
 * feature adds its endpoint here, with our rules in front of it as sign-up has them.
 */
export const AUTH_ENDPOINTS_OFFERED: readonly { method: 'GET' | 'POST'; path: string }[] = [
  { method: 'POST', path: SIGN_UP_PATH },
  { method: 'POST', path: SIGN_IN_PATH },
  { method: 'POST', path: '/api/auth/sign-out' },
  { method: 'POST', path: '/api/auth/sign-in/social' },
  { method: 'GET', path: `/api/auth/callback/${GOOGLE_PROVIDER_ID}` },
];

const NO_SUCH_ROUTE = 'No such API route.';

export function isOfferedAuthEndpoint(method: string, path: string): boolean {
  return AUTH_ENDPOINTS_OFFERED.some((endpoint) => endpoint.method === method && endpoint.path === path);
}

/**
 * Our rules run in front of better-auth, with the same schema the form uses, so a direct API call that
 * breaks one gets the form's message and nothing is created. The sign-up body is rebuilt from the
 * parsed input: better-auth would otherwise accept extra user fields and an untrimmed name.
 */
function applyAccountRules(request: FastifyRequest): void {
  const path = pathOf(request);
  if (path === SIGN_UP_PATH) {
    const input = parseInput(signUpInputSchema, request.body);
    request.body = { name: input.name, email: input.email, password: input.password, ...(input.image ? { image: input.image } : {}) };
  } else if (path === SIGN_IN_PATH) {
    parseInput(signInInputSchema, request.body);
  }
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION',
  429: 'RATE_LIMITED',
};

/** What to say when better-auth gave no message: its bare 404 is a path it does not know. */
function messageForStatus(status: number): string {
  return status === 404 ? NO_SUCH_ROUTE : 'Request failed.';
}

/**
 * better-auth answers errors as `{ code, message }`, or with no body at all (an unknown path is a bare
 * 404 with body `null`); every error of our API has one shape (docs/product/api.md#errors), so its answer is
 * re-thrown as an AppError with better-auth's message, or one by status. A taken email is pinned to
 * the email field so the form can show it there.
 */
async function toAppError(response: Response): Promise<AppError> {
  let body: { code?: unknown; message?: unknown } = {};
  try {
    body = ((await response.json()) ?? {}) as typeof body;
  } catch {
    // Not JSON: the status alone says enough.
  }
  const message = typeof body.message === 'string' && body.message ? body.message : messageForStatus(response.status);
  const code = CODE_BY_STATUS[response.status] ?? (response.status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
  const fieldErrors = typeof body.code === 'string' && body.code.startsWith('USER_ALREADY_EXISTS') ? { email: [message] } : undefined;
  const title = response.status === 401 ? 'Error' : undefined;
  return new AppError(code, message, { title, fieldErrors });
}

/**
 * better-auth swallows the driver's error and answers a bare 500 (body `null`). When the database is
 * the cause, say so with our 503 so clients retry; anything else is our generic 500.
 */
async function explainServerFailure(pingDatabase: () => Promise<void>): Promise<AppError> {
  try {
    await pingDatabase();
  } catch {
    return new AppError('UNAVAILABLE', 'The service is briefly unavailable. Please try again.', { headers: { 'retry-after': '5' } });
  }
  return new AppError('INTERNAL', 'Something went wrong on our side. Please try again.');
}

/**
 * Mounts better-auth at /api/auth/*. Fastify has already parsed the JSON body, so the request is
 * rebuilt as a Fetch Request for better-auth's handler and its Response copied back.
 */
export async function registerAuthRoutes(app: FastifyInstance, auth: Auth, pingDatabase: () => Promise<void>): Promise<void> {
  attachAuthLogger(auth, app.log);
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    // Before the body is read: an endpoint we do not offer costs no parsing and reaches nothing.
    async onRequest(request) {
      if (!isOfferedAuthEndpoint(request.method, pathOf(request))) throw new AppError('NOT_FOUND', NO_SUCH_ROUTE);
    },
    async preHandler(request) {
      applyAccountRules(request);
      await revokeIfPastAbsoluteLifetime(auth, request);
    },
    async handler(request, reply) {
      const url = new URL(request.url, auth.options.baseURL);
      const hasBody = request.method !== 'GET' && request.body !== undefined;
      const headers = fromNodeHeaders(request.headers);
      if (hasBody) headers.set('content-type', 'application/json');
      headers.delete('content-length');
      const response = await auth.handler(
        new Request(url, { method: request.method, headers, body: hasBody ? JSON.stringify(request.body) : undefined }),
      );
      for (const [key, value] of response.headers) {
        if (key === 'set-cookie' || key === 'content-length') continue;
        reply.header(key, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      reply.header('cache-control', 'no-store');
      // Our error body is JSON whatever type better-auth's answer had (Fastify refuses to send an object otherwise).
      if (response.status >= 400) reply.removeHeader('content-type');
      if (response.status >= 500) throw await explainServerFailure(pingDatabase);
      if (response.status >= 400) throw await toAppError(response);
      reply.status(response.status);
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
}
