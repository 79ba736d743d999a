import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { signInInputSchema, signUpInputSchema, type ErrorCode } from '@bulkcart/contracts';
import { AppError } from '../../lib/app-error.ts';
import { parseInput } from '../../lib/validate.ts';
import { attachAuthLogger, type Auth } from './auth.ts';
import { revokeIfPastAbsoluteLifetime } from './session.ts';

export const SIGN_UP_PATH = '/api/auth/sign-up/email';
export const SIGN_IN_PATH = '/api/auth/sign-in/email';
const UPDATE_USER_PATH = '/api/auth/update-user';

/** update-user changes the profile the sign-up form set, under the same rules; fields left out stay. */
const profileUpdateSchema = signUpInputSchema.pick({ name: true, image: true }).partial();

/**
 * better-auth endpoints of features this app does not offer (changing or verifying an email, password
 * reset by email, deleting the account, linking a social provider, extra session fields). They are
 * off in our configuration, yet each still answers in its own way and logs an error line per call
 * that any client can repeat; for us they are unknown routes. Whoever turns one of the features on
 * takes it off this list, and gives it our rules as update-user has them.
 *
 * Others are on in better-auth but unused by the app, and each gives a stolen session more than the
 * app needs: change-password lets a session holder guess the current password without limit (our
 * limits guard sign-in only); the account and token endpoints hand out or unlink provider credentials.
 */
const NOT_OFFERED_PATHS = [
  '/api/auth/change-email',
  '/api/auth/delete-user',
  '/api/auth/request-password-reset',
  '/api/auth/reset-password',
  '/api/auth/send-verification-email',
  '/api/auth/verify-email',
  '/api/auth/link-social',
  '/api/auth/update-session',
  '/api/auth/change-password',
  '/api/auth/unlink-account',
  '/api/auth/list-accounts',
  '/api/auth/account-info',
  '/api/auth/get-access-token',
  '/api/auth/refresh-token',
  // Both answer the session token itself, which also works as a Bearer credential: script injected
  // into a page could carry it off despite the HttpOnly cookie. The app asks /api/me instead.
  '/api/auth/get-session',
  '/api/auth/list-sessions',
];

const NO_SUCH_ROUTE = 'No such API route.';

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

function isNotOffered(path: string): boolean {
  return NOT_OFFERED_PATHS.some((offPath) => path === offPath || path.startsWith(`${offPath}/`));
}

/** A photo may be cleared with `null` (better-auth's way) or '' (the form's way): both mean no photo. */
function toProfileUpdate(body: unknown): { name?: string; image?: string | null } {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  const input = parseInput(profileUpdateSchema, isObject && 'image' in body && body.image === null ? { ...body, image: '' } : body);
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.image !== undefined ? { image: input.image || null } : {}),
  };
}

/**
 * Our rules run in front of better-auth, with the same schema the form uses, so a direct API call that
 * breaks one gets the form's message and nothing is created or changed. The sign-up and profile bodies
 * are rebuilt from the parsed input: better-auth would otherwise accept extra user fields and an
 * untrimmed name.
 */
function applyAccountRules(request: FastifyRequest): void {
  const path = pathOf(request);
  if (isNotOffered(path)) throw new AppError('NOT_FOUND', NO_SUCH_ROUTE);
  if (request.method !== 'POST') return;
  if (path === SIGN_UP_PATH) {
    const input = parseInput(signUpInputSchema, request.body);
    request.body = { name: input.name, email: input.email, password: input.password, ...(input.image ? { image: input.image } : {}) };
  } else if (path === SIGN_IN_PATH) {
    parseInput(signInInputSchema, request.body);
  } else if (path === UPDATE_USER_PATH) {
    request.body = toProfileUpdate(request.body);
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
