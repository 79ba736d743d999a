import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { routeContract } from '../../lib/route-schema.ts';

const healthSchema = z.object({ status: z.literal('ok'), db: z.literal('ok') });

/** Probed every few seconds by load balancers: the access log keeps them at debug. */
export const HEALTH_ROUTES: readonly string[] = ['/api/health'];

export async function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/health', routeContract({ summary: 'Whether the server and its database answer', tags: ['health'], response: { 200: healthSchema } }), async () => {
    try {
      await ctx.database.ping();
    } catch {
      throw new AppError('UNAVAILABLE', 'The database is not answering.', { title: 'Service unavailable' });
    }
    return { status: 'ok', db: 'ok' };
  });
}
