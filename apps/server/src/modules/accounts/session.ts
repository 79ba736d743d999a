import type { FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { AppError } from '../../lib/app-error.ts';
import { SESSION_ABSOLUTE_MS, type Auth } from './auth.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
  /** Whether the account proved it holds its address (a confirmation link, a reset, or Google). */
  emailVerified: boolean;
  /** The session this request is signed in with (its id, never its token). */
  sessionId: string;
}

interface ResolvedSession {
  user: SessionUser | null;
  /** Set-Cookie lines from better-auth when it slid the session forward; see forwardSessionRefresh. */
  refreshCookies: string[];
}

function hasCredentials(request: FastifyRequest): boolean {
  return Boolean(request.headers.cookie) || Boolean(request.headers.authorization);
}

function isPastAbsoluteLifetime(createdAt: Date | string): boolean {
  return Date.now() - new Date(createdAt).getTime() > SESSION_ABSOLUTE_MS;
}

/**
 * better-auth slides sessions forever while they are used; we cap them at 30 days from sign-in. An
 * over-age session is deleted, not just ignored, so better-auth's own endpoints refuse it too.
 */
async function revokeSession(auth: Auth, token: string): Promise<void> {
  const context = await auth.$context;
  await context.internalAdapter.deleteSession(token);
}

const sessionCache = new WeakMap<FastifyRequest, ResolvedSession>();

async function resolveSession(auth: Auth, request: FastifyRequest): Promise<ResolvedSession> {
  const cached = sessionCache.get(request);
  if (cached) return cached;
  let resolved: ResolvedSession = { user: null, refreshCookies: [] };
  if (hasCredentials(request)) {
    const { response, headers } = await auth.api.getSession({ headers: fromNodeHeaders(request.headers), returnHeaders: true });
    if (response && isPastAbsoluteLifetime(response.session.createdAt)) {
      await revokeSession(auth, response.session.token);
    } else if (response) {
      const { user } = response;
      resolved = {
        user: { id: user.id, email: user.email, name: user.name, image: user.image ?? null, emailVerified: user.emailVerified, sessionId: response.session.id },
        refreshCookies: headers?.getSetCookie() ?? [],
      };
    }
  }
  sessionCache.set(request, resolved);
  return resolved;
}

/**
 * Who is asking, from the session cookie or `Authorization: Bearer <token>`. Memoised per request so
 * a route and its hooks ask the database once.
 */
export async function getSessionUser(auth: Auth, request: FastifyRequest): Promise<SessionUser | null> {
  return (await resolveSession(auth, request)).user;
}

export async function requireUser(auth: Auth, request: FastifyRequest): Promise<SessionUser> {
  const user = await getSessionUser(auth, request);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in first.');
  return user;
}

/**
 * When resolving the session slid it forward, the browser's cookie must slide too, or it would still
 * expire at its first Max-Age while the database row lives on. Only cookie clients get it back.
 */
export function forwardSessionRefresh(request: FastifyRequest, reply: FastifyReply): void {
  const cookies = sessionCache.get(request)?.refreshCookies ?? [];
  if (cookies.length > 0 && request.headers.cookie && !request.headers.authorization) reply.header('set-cookie', cookies);
}

/**
 * In front of better-auth's own endpoints: deletes an over-age session before better-auth sees it,
 * without sliding anything (better-auth's endpoint does that itself when it should).
 */
export async function revokeIfPastAbsoluteLifetime(auth: Auth, request: FastifyRequest): Promise<void> {
  if (!hasCredentials(request)) return;
  const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers), query: { disableRefresh: true } });
  if (session && isPastAbsoluteLifetime(session.session.createdAt)) await revokeSession(auth, session.session.token);
}

/**
 * Whether the request's own bearer token signs it in, whatever cookie it also carries. Only such a
 * request may skip the cross-site check: any other Authorization header leaves the cookie in charge.
 */
export async function isAuthenticatedByBearer(auth: Auth, request: FastifyRequest): Promise<boolean> {
  const authorization = request.headers.authorization;
  if (!authorization || !/^Bearer \S/i.test(authorization)) return false;
  const found = await auth.api.getSession({ headers: new Headers({ authorization }), query: { disableRefresh: true } });
  return found !== null && !isPastAbsoluteLifetime(found.session.createdAt);
}

/** The signed-in user's id if this request resolved its session (for the access log; never asks). */
export function resolvedUserId(request: FastifyRequest): string | null {
  return sessionCache.get(request)?.user?.id ?? null;
}

/**
 * Some acts need an address the account has proved it holds (docs/decisions/015-account-trust.md):
 * submitting a business for verification, and listing products when REQUIRE_VERIFIED_SELLERS is on.
 */
export function requireVerifiedEmail(user: SessionUser, what: string): void {
  if (user.emailVerified) return;
  throw new AppError('FORBIDDEN', `Confirm your e-mail before you ${what}: open the link we sent to ${user.email}, or send a new one from the banner.`, {
    title: 'Confirm your e-mail',
  });
}
