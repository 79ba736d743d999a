import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';

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
