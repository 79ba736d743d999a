import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** Ordering API (issue 5). */
export async function registerOrderRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
