import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accountSessionsResponseSchema, deleteAccountInputSchema, meResponseSchema, type MeResponse } from '@bulkcart/contracts';
import { routeContract } from '../../lib/route-schema.ts';
import { parseInput } from '../../lib/validate.ts';
import type { AppContext } from '../../context.ts';
import { DEMO_BUYER } from '../../db/seed/demo-accounts.ts';
import { forgetCachedSessions, forwardSessionRefresh, getSessionUser, requireUser } from './session.ts';
import { buyerPricing } from '../business/buyer-status.ts';
import { isOperator } from '../business/operators.ts';
import { isSeller } from '../dashboard/dashboard.service.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import { deleteAccount, listSessions, signOutOtherSessions } from './accounts.service.ts';

const tags = ['accounts'];

export async function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerAuthRoutes(app, ctx);

  /** Who is signed in, as the spec's User entity; `null` when nobody is (not an error for the app). */
  app.get('/api/me', routeContract({ summary: 'Who is signed in', tags, response: { 200: meResponseSchema } }), async (request, reply): Promise<MeResponse> => {
    const user = await getSessionUser(ctx.auth, request);
    forwardSessionRefresh(request, reply);
    return {
      user: user ? { id: user.id, email: user.email, displayName: user.name, photoURL: user.image, emailVerified: user.emailVerified } : null,
      googleEnabled: ctx.config.google !== null,
      ...(ctx.config.seedDemo ? { demoLogin: { email: DEMO_BUYER.email, password: DEMO_BUYER.password } } : {}),
      verification: await buyerPricing(ctx.db, ctx.config.buyerVerification, user?.id ?? null),
      operator: await isOperator(ctx.db, ctx.config, user),
      seller: user ? await isSeller(ctx.db, user.id) : false,
    };
  });

  app.get(
    '/api/me/sessions',
    routeContract({ summary: 'Where your account is signed in (device, place, last seen; never a token)', tags, signedIn: true, response: { 200: accountSessionsResponseSchema } }),
    async (request) => ({ sessions: await listSessions(ctx.db, await requireUser(ctx.auth, request)) }),
  );

  app.post(
    '/api/me/sessions/sign-out-others',
    routeContract({ summary: 'Sign out everywhere else', tags, signedIn: true, response: { 200: z.object({ signedOut: z.number().int() }) } }),
    async (request) => {
      const ended = await signOutOtherSessions(ctx.db, await requireUser(ctx.auth, request));
      forgetCachedSessions(ctx.auth);
      return ended;
    },
  );

  app.delete(
    '/api/me',
    routeContract({ summary: 'Delete your account (orders stay for the other side; refused while one is open)', tags, signedIn: true, body: deleteAccountInputSchema, response: { 200: z.object({ deleted: z.literal(true) }) } }),
    async (request) => {
      const me = await requireUser(ctx.auth, request);
      const input = parseInput(deleteAccountInputSchema, request.body ?? {});
      try {
        await deleteAccount(ctx.db, ctx.auth, me, input);
      } finally {
        forgetCachedSessions(ctx.auth);
      }
      return { deleted: true as const };
    },
  );
}
