import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../context.ts';
import { getSessionUser, type SessionUser } from '../modules/accounts/session.ts';
import { isOperator } from '../modules/business/operators.ts';
import { crossSiteRefusal } from '../plugins/security.ts';
import { AppError } from './app-error.ts';

/** The request's operator, or null: the only people an operator's route exists for. */
export async function operatorSession(ctx: Pick<AppContext, 'auth' | 'config' | 'db'>, request: FastifyRequest): Promise<SessionUser | null> {
  const user = await getSessionUser(ctx.auth, request);
  return user && (await isOperator(ctx.db, ctx.config, user)) ? user : null;
}

/** The router's own 404, word for word: to anyone else an operator's route does not exist. */
const noSuchRoute = () => new AppError('NOT_FOUND', 'No such API route.', { title: 'Not found' });

const operators = new WeakMap<object, SessionUser>();

/**
 * The onRequest hook of every `auth: 'operator'` route (lib/define-route.ts): bound to the route the
 * router matched (whatever spelling reached it, docs/decisions/007-request-paths.md), it runs before a
 * body is read. Anyone else, signed in or not, gets the 404 of a route that is not there.
 */
export function operatorGate(ctx: Pick<AppContext, 'auth' | 'config' | 'db'>): onRequestHookHandler {
  const refuseCrossSite = crossSiteRefusal(ctx.config, ctx.auth);
  return async (request) => {
    const user = await operatorSession(ctx, request);
    if (!user) throw noSuchRoute();
    // The global cross-site check leaves operators' routes to this hook: an operator's write is checked here.
    await refuseCrossSite(request);
    operators.set(request, user);
  };
}

/** The operator operatorGate let through. */
export function operatorOf(request: FastifyRequest): SessionUser {
  const user = operators.get(request);
  if (!user) throw noSuchRoute();
  return user;
}
