import type { FastifyInstance, FastifyRequest } from 'fastify';
import { signInInputSchema, signUpInputSchema, type ErrorCode } from '@bulkcart/contracts';
import { AppError } from '../../lib/app-error.ts';
import { parseInput } from '../../lib/validate.ts';
import { attachAuthLogger, type Auth } from './auth.ts';
import { revokeIfPastAbsoluteLifetime, toHeaders } from './session.ts';

export const SIGN_UP_PATH = '/api/auth/sign-up/email';
export const SIGN_IN_PATH = '/api/auth/sign-in/email';

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

/**
 * Our rules run in front of better-auth, with the same schema the form uses, so a direct API call that
 * breaks one gets the form's message and nothing is created. The sign-up body is rebuilt from the
 * parsed input: better-auth would otherwise accept extra user fields and an untrimmed name.
 */
function applyAccountRules(request: FastifyRequest): void {
  if (request.method !== 'POST') return;
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

/**
 * better-auth answers errors as `{ code, message }`; every error of our API has one shape
 * (decisions.md §4), so its answer is re-thrown as an AppError with better-auth's message. A taken
 * email is pinned to the email field so the form can show it there.
 */
async function toAppError(response: Response): Promise<AppError> {
  let body: { code?: unknown; message?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Not JSON: the status alone says enough.
  }
  const message = typeof body.message === 'string' && body.message ? body.message : 'Request failed.';
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
      const headers = toHeaders(request);
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
      if (response.status >= 500) throw await explainServerFailure(pingDatabase);
      if (response.status >= 400 && response.headers.get('content-type')?.includes('application/json')) throw await toAppError(response);
      reply.status(response.status);
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
}
