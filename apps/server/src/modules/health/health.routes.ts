import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';

/** Probed every few seconds by load balancers: the access log keeps them at debug. */
export const HEALTH_ROUTES: readonly string[] = ['/api/health'];

export async function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/health', async () => {
    try {
      await ctx.database.ping();
    } catch {
      throw new AppError('UNAVAILABLE', 'The database is not answering.', { title: 'Service unavailable' });
    }
    return { status: 'ok', db: 'ok' };
  });
}
