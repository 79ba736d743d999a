import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { getSessionUser } from '../../modules/accounts/session.ts';
import { EXPORTS_PER_USER_PER_MINUTE, onLimitedRoute } from './route-limits.ts';
import { MINUTE_MS, refuse } from './refusal.ts';
import { SlidingWindowCounter } from './sliding-window-counter.ts';

/**
 * The routes whose definition says `rateLimit: 'downloads'`, per account, in this process's memory, like
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
