import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  approveInputSchema,
  auditListQuerySchema,
  auditListSchema,
  rejectInputSchema,
  verificationListQuerySchema,
  verificationListSchema,
  verificationSchema,
  type Verification,
} from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../lib/define-route.ts';
import { operatorSession } from '../../lib/operator-gate.ts';
import type { SessionUser } from '../accounts/session.ts';
import { sendPage } from '../../lib/pagination.ts';
import { approveVerification, listAudit, listVerifications, readVerificationDocument, rejectVerification } from './admin.service.ts';
import { sendDocument } from './document-reply.ts';
import { verificationNotifier } from '../notifications/index.ts';

const tags = ['admin'];
const idParams = z.object({ id: z.string() });

export function isAdminPath(path: string): boolean {
  return path.startsWith('/api/admin/');
}

export async function isOperatorRequest(ctx: AppContext, request: FastifyRequest): Promise<boolean> {
  return (await operatorSession(ctx, request)) !== null;
}

const DECISION_CONFLICT =
  'Nothing recorded: the `revision` sent is missing or not the current one ("This submission changed since you opened it"), the verification is not pending, or (approve) its permit has expired.';

/**
 * /api/admin/… for operators only (`auth: 'operator'`, lib/operator-gate.ts): anyone else, signed in or
 * not, gets the 404 of a route that is not there, before a body is read.
 */
export async function registerAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // A decision reaches the buyer's bell and, when mail is set up, their inbox.
  const notifyBuyer = verificationNotifier(ctx.config);

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/verifications',
    auth: 'operator',
    summary: 'Verifications by status, oldest submission first (operators)',
    tags,
    querystring: verificationListQuerySchema,
    response: { 200: verificationListSchema },
    handler: async ({ query, reply }) => {
      const page = await listVerifications(ctx.db, query);
      return sendPage(reply, '/api/admin/verifications', { limit: query.limit, status: query.status }, page);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/verifications/:id/document',
    auth: 'operator',
    summary: "Download a verification's document (operators)",
    tags,
    params: idParams,
    response: {},
    download: 'attachment',
    handler: async ({ params, reply }) => sendDocument(reply, await readVerificationDocument(ctx.db, params.id)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/verifications/:id/preview',
    auth: 'operator',
    summary: "A verification's document to look at in the page: inline, sandboxed by its own CSP, framable by this site only (operators)",
    tags,
    params: idParams,
    response: {},
    download: 'inline',
    handler: async ({ params, reply }) => sendDocument(reply, await readVerificationDocument(ctx.db, params.id), 'inline'),
  });

  /** An operator's decision on one verification, at the revision they looked at; answered with the verification as it now is. */
  const decision = <B extends typeof approveInputSchema | typeof rejectInputSchema>(
    action: 'approve' | 'reject',
    summary: string,
    body: B,
    decide: (db: AppContext['db'], operator: SessionUser, id: string, input: z.output<B>, notify: typeof notifyBuyer) => Promise<Verification>,
  ) =>
    defineRoute(app, ctx, {
      method: 'POST',
      url: `/api/admin/verifications/:id/${action}`,
      auth: 'operator',
      summary,
      tags,
      params: idParams,
      body,
      response: { 200: verificationSchema },
      errors: { 409: DECISION_CONFLICT },
      handler: ({ user, params, body: input }) => decide(ctx.db, user, params.id, input as z.output<B>, notifyBuyer),
    });

  decision('approve', 'Approve a pending verification at the revision you looked at (operators)', approveInputSchema, approveVerification);
  decision('reject', 'Reject a pending verification at the revision you looked at, with a reason (operators)', rejectInputSchema, rejectVerification);

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/audit',
    auth: 'operator',
    summary: 'Every operator decision, newest first (operators; read-only)',
    tags,
    querystring: auditListQuerySchema,
    response: { 200: auditListSchema },
    handler: async ({ query, reply }) => sendPage(reply, '/api/admin/audit', { limit: query.limit }, await listAudit(ctx.db, query)),
  });
}
