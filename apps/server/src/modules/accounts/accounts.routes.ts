import type { FastifyInstance } from 'fastify';
import type { Me } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { getSessionUser } from './session.ts';
import { registerAuthRoutes } from './auth.routes.ts';

export async function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerAuthRoutes(app, ctx.auth);

  /** Who is signed in, as the spec's User entity; `null` when nobody is (not an error for the app). */
  app.get('/api/me', async (request): Promise<{ user: Me | null; googleEnabled: boolean }> => {
    const user = await getSessionUser(ctx.auth, request);
    return {
      user: user ? { id: user.id, email: user.email, displayName: user.name, photoURL: user.image } : null,
      googleEnabled: ctx.config.google !== null,
    };
  });
}
