import type { FastifyInstance } from 'fastify';
import { meResponseSchema, type MeResponse } from '@bulkcart/contracts';
import { routeContract } from '../../lib/route-schema.ts';
import type { AppContext } from '../../context.ts';
import { DEMO_BUYER } from '../../db/seed/demo-accounts.ts';
import { forwardSessionRefresh, getSessionUser } from './session.ts';
import { buyerPricing } from '../business/buyer-status.ts';
import { isOperator } from '../business/operators.ts';
import { registerAuthRoutes } from './auth.routes.ts';

export async function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerAuthRoutes(app, ctx.auth, () => ctx.database.ping());

  /** Who is signed in, as the spec's User entity; `null` when nobody is (not an error for the app). */
  app.get('/api/me', routeContract({ summary: 'Who is signed in', tags: ['accounts'], response: { 200: meResponseSchema } }), async (request, reply): Promise<MeResponse> => {
    const user = await getSessionUser(ctx.auth, request);
    forwardSessionRefresh(request, reply);
    return {
      user: user ? { id: user.id, email: user.email, displayName: user.name, photoURL: user.image } : null,
      googleEnabled: ctx.config.google !== null,
      ...(ctx.config.seedDemo ? { demoLogin: { email: DEMO_BUYER.email, password: DEMO_BUYER.password } } : {}),
      verification: await buyerPricing(ctx.db, ctx.config.buyerVerification, user?.id ?? null),
      operator: isOperator(ctx.config, user?.email),
    };
  });
}
