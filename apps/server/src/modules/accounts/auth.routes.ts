import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import {
  changeEmailInputSchema,
  changePasswordInputSchema,
  requestPasswordResetInputSchema,
  resetPasswordInputSchema,
  sendVerificationInputSchema,
  signInInputSchema,
  signUpInputSchema,
  type ErrorCode,
} from '@bulkcart/contracts';
import { paths } from '@bulkcart/contracts/routes';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { parseInput } from '../../lib/validate.ts';
import { pathOf } from '../../plugins/canonical-path.ts';
import { attachAuthLogger, GOOGLE_PROVIDER_ID, type Auth } from './auth.ts';
import { forgetCachedSessions, requireUser, revokeIfPastAbsoluteLifetime } from './session.ts';

export const SIGN_UP_PATH = '/api/auth/sign-up/email';
export const SIGN_IN_PATH = '/api/auth/sign-in/email';
export const REQUEST_RESET_PATH = '/api/auth/request-password-reset';
export const RESET_PASSWORD_PATH = '/api/auth/reset-password';
export const CHANGE_PASSWORD_PATH = '/api/auth/change-password';
export const CHANGE_EMAIL_PATH = '/api/auth/change-email';
export const SEND_VERIFICATION_PATH = '/api/auth/send-verification-email';
export const VERIFY_EMAIL_PATH = '/api/auth/verify-email';

/** What a reset request answers, whether or not the address has an account. */
export const RESET_REQUESTED_MESSAGE = 'If this email exists in our system, check your email for the reset link';

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
  // Accounts a business can trust (docs/decisions/015-account-trust.md).
  { method: 'POST', path: REQUEST_RESET_PATH },
  { method: 'POST', path: RESET_PASSWORD_PATH },
  { method: 'POST', path: CHANGE_PASSWORD_PATH },
  { method: 'POST', path: CHANGE_EMAIL_PATH },
  { method: 'POST', path: SEND_VERIFICATION_PATH },
  { method: 'GET', path: VERIFY_EMAIL_PATH },
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
async function applyAccountRules(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const path = pathOf(request);
  if (path === SIGN_UP_PATH) {
    const input = parseInput(signUpInputSchema, request.body);
    request.body = { name: input.name, email: input.email, password: input.password, ...(input.image ? { image: input.image } : {}) };
  } else if (path === SIGN_IN_PATH) {
    parseInput(signInInputSchema, request.body);
  } else if (path === REQUEST_RESET_PATH) {
    const input = parseInput(requestPasswordResetInputSchema, request.body);
    request.body = { email: input.email.toLowerCase() };
  } else if (path === RESET_PASSWORD_PATH) {
    const input = parseInput(resetPasswordInputSchema, request.body);
    request.body = { newPassword: input.newPassword, token: input.token };
  } else if (path === CHANGE_PASSWORD_PATH) {
    const input = parseInput(changePasswordInputSchema, request.body);
    // A new password always signs out the other sessions: whoever else held one may be why it changed.
    request.body = { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true };
  } else if (path === CHANGE_EMAIL_PATH) {
    const input = parseInput(changeEmailInputSchema, request.body);
    request.body = { newEmail: input.newEmail.toLowerCase(), callbackURL: paths.settings };
  } else if (path === SEND_VERIFICATION_PATH) {
    parseInput(sendVerificationInputSchema, request.body ?? {});
    // Only to the signed-in account's own address: never a way to mail strangers.
    const user = await requireUser(ctx.auth, request);
    request.body = { email: user.email, callbackURL: paths.settings };
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
 * A reset request answers at once, the same words whatever the address: the lookup, the token and the
 * e-mail happen after the answer is sent, so neither the answer nor its timing says whether the address
 * has an account. A failure there is logged (without the address) and the person can ask again.
 */
function answerResetRequest(auth: Auth, request: FastifyRequest, reply: FastifyReply) {
  const { email } = request.body as { email: string };
  setImmediate(() => {
    auth.api.requestPasswordReset({ body: { email } }).catch((error: unknown) => request.log.error({ err: error }, 'password reset request failed'));
  });
  reply.header('cache-control', 'no-store');
  return reply.send({ status: true, message: RESET_REQUESTED_MESSAGE });
}

/**
 * Mounts better-auth at /api/auth/*. Fastify has already parsed the JSON body, so the request is
 * rebuilt as a Fetch Request for better-auth's handler and its Response copied back.
 */
export async function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { auth } = ctx;
  const pingDatabase = () => ctx.database.ping();
  attachAuthLogger(auth, app.log);
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    // Before the body is read: an endpoint we do not offer costs no parsing and reaches nothing.
    async onRequest(request) {
      if (!isOfferedAuthEndpoint(request.method, pathOf(request))) throw new AppError('NOT_FOUND', NO_SUCH_ROUTE);
    },
    async preHandler(request) {
      await applyAccountRules(ctx, request);
      await revokeIfPastAbsoluteLifetime(auth, request);
    },
    async handler(request, reply) {
      if (pathOf(request) === REQUEST_RESET_PATH) return answerResetRequest(auth, request, reply);
      const url = new URL(request.url, auth.options.baseURL);
      const hasBody = request.method !== 'GET' && request.body !== undefined;
      const headers = fromNodeHeaders(request.headers);
      if (hasBody) headers.set('content-type', 'application/json');
      headers.delete('content-length');
      let response: Response;
      try {
        response = await auth.handler(new Request(url, { method: request.method, headers, body: hasBody ? JSON.stringify(request.body) : undefined }));
      } finally {
        // Signing out, a new password, a reset, a confirmed or changed address: sessions and the users
        // they name may have changed, so none cached before this point is used again (session-cache.ts).
        forgetCachedSessions(auth);
      }
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
