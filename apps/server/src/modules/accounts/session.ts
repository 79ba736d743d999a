import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { SESSION_ABSOLUTE_MS, type Auth } from './auth.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
}

function toHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, String(value));
  }
  return headers;
}

/**
 * Who is asking, from the session cookie or `Authorization: Bearer <token>`. Memoised per request so
 * a route and its hooks ask the database once. A session older than the absolute lifetime is refused
 * even if it has kept sliding.
 */
export async function getSessionUser(auth: Auth, request: FastifyRequest): Promise<SessionUser | null> {
  const cached = sessionCache.get(request);
  if (cached !== undefined) return cached;
  const hasCredentials = Boolean(request.headers.cookie) || Boolean(request.headers.authorization);
  let user: SessionUser | null = null;
  if (hasCredentials) {
    const result = await auth.api.getSession({ headers: toHeaders(request) });
    if (result && Date.now() - new Date(result.session.createdAt).getTime() <= SESSION_ABSOLUTE_MS) {
      user = { id: result.user.id, email: result.user.email, name: result.user.name, image: result.user.image ?? null };
    }
  }
  sessionCache.set(request, user);
  return user;
}

const sessionCache = new WeakMap<FastifyRequest, SessionUser | null>();

export async function requireUser(auth: Auth, request: FastifyRequest): Promise<SessionUser> {
  const user = await getSessionUser(auth, request);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in first.');
  return user;
}

export { toHeaders };
