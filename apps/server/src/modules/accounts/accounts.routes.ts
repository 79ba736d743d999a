import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accountSessionsResponseSchema, deleteAccountInputSchema, meResponseSchema } from '@bulkcart/contracts';
import { defineRoute } from '../../lib/define-route.ts';
import type { AppContext } from '../../context.ts';
import { DEMO_BUYER } from '../../db/seed/demo-accounts.ts';
import { forgetCachedSessions, forwardSessionRefresh } from './session.ts';
import { buyerPricing, isOperator } from '../business/index.ts';
import { isSeller } from '../dashboard/index.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import { deleteAccount, listSessions, signOutOtherSessions } from './accounts.service.ts';

const tags = ['accounts'];

export async function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerAuthRoutes(app, ctx);

  /** Who is signed in, as the spec's User entity; `null` when nobody is (not an error for the app). */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/me',
    auth: 'optional',
    summary: 'Who is signed in',
    tags,
    response: { 200: meResponseSchema },
    handler: async ({ user, request, reply }) => {
      forwardSessionRefresh(request, reply);
      return {
        user: user ? { id: user.id, email: user.email, displayName: user.name, photoURL: user.image, emailVerified: user.emailVerified } : null,
        googleEnabled: ctx.config.google !== null,
        ...(ctx.config.seedDemo ? { demoLogin: { email: DEMO_BUYER.email, password: DEMO_BUYER.password } } : {}),
        verification: await buyerPricing(ctx.db, ctx.config.buyerVerification, user?.id ?? null),
        operator: await isOperator(ctx.db, ctx.config, user),
        seller: user ? await isSeller(ctx.db, user.id) : false,
      };
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/me/sessions',
    auth: 'signedIn',
    summary: 'Where your account is signed in (device, place, last seen; never a token)',
    tags,
    response: { 200: accountSessionsResponseSchema },
    handler: async ({ user }) => ({ sessions: await listSessions(ctx.db, user) }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/me/sessions/sign-out-others',
    auth: 'signedIn',
    summary: 'Sign out everywhere else',
    tags,
    response: { 200: z.object({ signedOut: z.number().int() }) },
    handler: async ({ user }) => {
      const ended = await signOutOtherSessions(ctx.db, user);
      forgetCachedSessions(ctx.auth);
      return ended;
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/me',
    auth: 'signedIn',
    summary: 'Delete your account (orders stay for the other side; refused while one is open)',
    tags,
    body: deleteAccountInputSchema,
    response: { 200: z.object({ deleted: z.literal(true) }) },
    handler: async ({ user, body }) => {
      try {
        await deleteAccount(ctx.db, ctx.auth, user, body);
      } finally {
        forgetCachedSessions(ctx.auth);
      }
      return { deleted: true as const };
    },
  });
}
