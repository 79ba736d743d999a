import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** Catalog API (issue 4). */
export async function registerProductRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
