import type { FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { AppError } from '../../lib/app-error.ts';
import { SESSION_ABSOLUTE_MS, type Auth } from './auth.ts';
import type { SessionCache } from './session-cache.ts';

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

/** The sessions each app resolved recently (session-cache.ts); an Auth without one asks every time. */
const sessionCaches = new WeakMap<Auth, SessionCache<SessionUser>>();

export function attachSessionCache(auth: Auth, cache: SessionCache<SessionUser>): void {
  sessionCaches.set(auth, cache);
}

/**
 * Something in this process may have ended sessions or changed who they belong to (an auth endpoint,
 * signing out elsewhere, deleting an account): every request from now on asks the database again.
 */
export function forgetCachedSessions(auth: Auth): void {
  sessionCaches.get(auth)?.forgetAll();
}

/**
 * better-auth slides sessions forever while they are used; we cap them at 30 days from sign-in. An
 * over-age session is deleted, not just ignored, so better-auth's own endpoints refuse it too.
 */
async function revokeSession(auth: Auth, token: string): Promise<void> {
  forgetCachedSessions(auth);
  const context = await auth.$context;
  await context.internalAdapter.deleteSession(token);
  forgetCachedSessions(auth);
}

/** When a cached session must be asked about again: its expiry or its absolute lifetime, whichever is first. */
function sessionEndsAt(session: { createdAt: Date | string; expiresAt: Date | string }): number {
  return Math.min(new Date(session.expiresAt).getTime(), new Date(session.createdAt).getTime() + SESSION_ABSOLUTE_MS);
}

function toSessionUser(found: {
  user: { id: string; email: string; name: string; image?: string | null; emailVerified: boolean };
  session: { id: string };
}): SessionUser {
  const { user } = found;
  return { id: user.id, email: user.email, name: user.name, image: user.image ?? null, emailVerified: user.emailVerified, sessionId: found.session.id };
}

const requestSessions = new WeakMap<FastifyRequest, ResolvedSession>();

async function resolveSession(auth: Auth, request: FastifyRequest): Promise<ResolvedSession> {
  const memo = requestSessions.get(request);
  if (memo) return memo;
  let resolved: ResolvedSession = { user: null, refreshCookies: [] };
  if (hasCredentials(request)) {
    const cache = sessionCaches.get(auth);
    const key = cache?.keyOf(request.headers.authorization, request.headers.cookie) ?? null;
    const cached = key ? cache?.get(key) : null;
    if (cached) {
      resolved = { user: cached, refreshCookies: [] };
    } else {
      const startedAt = cache?.generation() ?? 0;
      const { response, headers } = await auth.api.getSession({ headers: fromNodeHeaders(request.headers), returnHeaders: true });
      if (response && isPastAbsoluteLifetime(response.session.createdAt)) {
        await revokeSession(auth, response.session.token);
      } else if (response) {
        resolved = { user: toSessionUser(response), refreshCookies: headers?.getSetCookie() ?? [] };
        if (key && resolved.user) cache?.remember(key, startedAt, resolved.user, sessionEndsAt(response.session));
      }
    }
  }
  requestSessions.set(request, resolved);
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
  const cookies = requestSessions.get(request)?.refreshCookies ?? [];
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
  // The bearer token alone, without the cookie: cached under its own key.
  const cache = sessionCaches.get(auth);
  const key = cache?.keyOf(authorization, undefined) ?? null;
  if (key && cache?.get(key)) return true;
  const startedAt = cache?.generation() ?? 0;
  const found = await auth.api.getSession({ headers: new Headers({ authorization }), query: { disableRefresh: true } });
  if (found === null || isPastAbsoluteLifetime(found.session.createdAt)) return false;
  if (key) cache?.remember(key, startedAt, toSessionUser(found), sessionEndsAt(found.session));
  return true;
}

/** The signed-in user's id if this request resolved its session (for the access log; never asks). */
export function resolvedUserId(request: FastifyRequest): string | null {
  return requestSessions.get(request)?.user?.id ?? null;
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
