import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { getSessionUser } from '../../modules/accounts/session.ts';
import { onLimitedRoute } from './limited-route.ts';
import { MINUTE_MS, refuse } from './refusal.ts';
import { SlidingWindowCounter } from './sliding-window-counter.ts';

/**
 * CSV downloads one account may start per minute. Each one streams a whole catalog or order history
 * (100,000 rows and more) from the database: a person downloads a few, a script looping on them would
 * hold a connection and a core busy for everyone.
 */
export const EXPORTS_PER_USER_PER_MINUTE = 10;

/** What the description of each route with `limit: 'downloads'` says of it (plugins/openapi.ts adds Retry-After). */
export const EXPORT_LIMIT_DESCRIPTION = `More than ${EXPORTS_PER_USER_PER_MINUTE} CSV downloads this minute from this account`;

/**
 * The routes whose definition says `limit: 'downloads'`, per account, in this process's memory, like
 * order creation: a limit on load, not on guesses, so a count per process is enough. A signed-out
 * request passes on to the route, which answers 401.
 */
export function registerExportLimits(app: FastifyInstance, ctx: AppContext): void {
  const exportsByUser = new SlidingWindowCounter(EXPORTS_PER_USER_PER_MINUTE, MINUTE_MS);

  onLimitedRoute(app, 'downloads', async (request: FastifyRequest) => {
    const user = await getSessionUser(ctx.auth, request);
    if (!user) return;
    const key = `user:${user.id}`;
    const waitMs = exportsByUser.waitMs(key);
    if (waitMs > 0) throw refuse(waitMs, 'downloads');
    exportsByUser.record(key);
  });
}
