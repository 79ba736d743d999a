import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { defineRoute } from '../../lib/define-route.ts';

const replicaSchema = z
  .object({
    state: z.enum(['starting', 'ok', 'lagging', 'down']).describe('ok: lag-tolerant reads use it; otherwise they go to the primary'),
    lagMs: z.number().int().nullable().describe('How far behind the primary it is; null when not known'),
  })
  .describe('The read replica (DATABASE_READ_URL), when one is set');

const healthSchema = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  databases: z.object({ primary: z.literal('ok'), replica: replicaSchema.optional() }).describe('Each database this process uses'),
});

/** Probed every few seconds by load balancers: the access log keeps them at debug. */
export const HEALTH_ROUTES: readonly string[] = ['/api/health'];

/**
 * 200 while the primary answers. A replica that is down or lagging is reported but does not fail the
 * check: reads go to the primary meanwhile, so the process still serves every request.
 */
export async function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/health',
    auth: 'public',
    summary: 'Whether the server and its databases answer',
    tags: ['health'],
    response: { 200: healthSchema },
    handler: async () => {
      try {
        await ctx.database.ping();
      } catch {
        throw new AppError('UNAVAILABLE', 'The database is not answering.', { title: 'Service unavailable' });
      }
      const replica = ctx.reads.replicaHealth();
      return {
        status: 'ok' as const,
        db: 'ok' as const,
        databases: {
          primary: 'ok' as const,
          ...(replica ? { replica: { state: replica.state, lagMs: replica.lagMs === null ? null : Math.round(replica.lagMs) } } : {}),
        },
      };
    },
  });
}
