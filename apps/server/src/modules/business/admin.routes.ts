import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { approveInputSchema, auditListQuerySchema, auditListSchema, rejectInputSchema, verificationListQuerySchema, verificationListSchema, verificationSchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { sendPage } from '../../lib/pagination.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { parseInput } from '../../lib/validate.ts';
import { getSessionUser, type SessionUser } from '../accounts/session.ts';
import { approveVerification, listAudit, listVerifications, readVerificationDocument, rejectVerification } from './admin.service.ts';
import { sendDocument } from './document-reply.ts';
import { isOperator } from './operators.ts';
import { crossSiteRefusal } from '../../plugins/security.ts';
import { verificationNotifier } from '../notifications/notify.ts';

const tags = ['admin'];
const idParams = z.object({ id: z.string() });

export function isAdminPath(path: string): boolean {
  return path.startsWith('/api/admin/');
}

/** The request's operator, or null: the only people an admin path exists for. */
async function operatorSession(ctx: AppContext, request: FastifyRequest): Promise<SessionUser | null> {
  const user = await getSessionUser(ctx.auth, request);
  return user && (await isOperator(ctx.db, ctx.config, user)) ? user : null;
}

export async function isOperatorRequest(ctx: AppContext, request: FastifyRequest): Promise<boolean> {
  return (await operatorSession(ctx, request)) !== null;
}

/** The router's own 404, word for word: to anyone else an admin route does not exist. */
const noSuchRoute = () => new AppError('NOT_FOUND', 'No such API route.', { title: 'Not found' });

const operators = new WeakMap<object, SessionUser>();

const DECISION_CONFLICT =
  'Nothing recorded: the `revision` sent is missing or not the current one ("This submission changed since you opened it"), the verification is not pending, or (approve) its permit has expired.';

/**
 * /api/admin/… for operators only. The check is an onRequest hook of this scope, so it is bound to the
 * routes the router matched here (whatever spelling reached them, docs/decisions/007-request-paths.md)
 * and runs before a body is read. Anyone else, signed in or not, gets the 404 of a route that is not there.
 */
export async function registerAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const refuseCrossSite = crossSiteRefusal(ctx.config, ctx.auth);
  // A decision reaches the buyer's bell and, when mail is set up, their inbox.
  const notifyBuyer = verificationNotifier(ctx.config);
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      const user = await operatorSession(ctx, request);
      if (!user) throw noSuchRoute();
      // The global cross-site check leaves these routes to us: an operator's write is checked here.
      await refuseCrossSite(request);
      operators.set(request, user);
    });
    const operatorOf = (request: object): SessionUser => {
      const user = operators.get(request);
      if (!user) throw noSuchRoute();
      return user;
    };

    scope.get(
      '/api/admin/verifications',
      routeContract({ summary: 'Verifications by status, oldest submission first (operators)', tags, signedIn: true, querystring: verificationListQuerySchema, response: { 200: verificationListSchema } }),
      async (request, reply) => {
        operatorOf(request);
        const query = parseInput(verificationListQuerySchema, request.query);
        const page = await listVerifications(ctx.db, query);
        return sendPage(reply, '/api/admin/verifications', { limit: query.limit, status: query.status }, page);
      },
    );

    scope.get<{ Params: { id: string } }>(
      '/api/admin/verifications/:id/document',
      routeContract({ summary: "Download a verification's document (operators)", tags, signedIn: true, params: idParams, response: {}, download: 'attachment' }),
      async (request, reply) => {
        operatorOf(request);
        return sendDocument(reply, await readVerificationDocument(ctx.db, request.params.id));
      },
    );

    scope.get<{ Params: { id: string } }>(
      '/api/admin/verifications/:id/preview',
      routeContract({
        summary: "A verification's document to look at in the page: inline, sandboxed by its own CSP, framable by this site only (operators)",
        tags,
        signedIn: true,
        params: idParams,
        response: {},
        download: 'inline',
      }),
      async (request, reply) => {
        operatorOf(request);
        return sendDocument(reply, await readVerificationDocument(ctx.db, request.params.id), 'inline');
      },
    );

    scope.post<{ Params: { id: string } }>(
      '/api/admin/verifications/:id/approve',
      routeContract({
        summary: 'Approve a pending verification at the revision you looked at (operators)',
        tags,
        signedIn: true,
        params: idParams,
        body: approveInputSchema,
        response: { 200: verificationSchema },
        errors: { 409: DECISION_CONFLICT },
      }),
      async (request) => {
        const operator = operatorOf(request);
        return approveVerification(ctx.db, operator, request.params.id, parseInput(approveInputSchema, request.body), notifyBuyer);
      },
    );

    scope.post<{ Params: { id: string } }>(
      '/api/admin/verifications/:id/reject',
      routeContract({
        summary: 'Reject a pending verification at the revision you looked at, with a reason (operators)',
        tags,
        signedIn: true,
        params: idParams,
        body: rejectInputSchema,
        response: { 200: verificationSchema },
        errors: { 409: DECISION_CONFLICT },
      }),
      async (request) => {
        const operator = operatorOf(request);
        return rejectVerification(ctx.db, operator, request.params.id, parseInput(rejectInputSchema, request.body), notifyBuyer);
      },
    );

    scope.get(
      '/api/admin/audit',
      routeContract({ summary: 'Every operator decision, newest first (operators; read-only)', tags, signedIn: true, querystring: auditListQuerySchema, response: { 200: auditListSchema } }),
      async (request, reply) => {
        operatorOf(request);
        const query = parseInput(auditListQuerySchema, request.query);
        return sendPage(reply, '/api/admin/audit', { limit: query.limit }, await listAudit(ctx.db, query));
      },
    );
  });
}
