import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dashboardQuerySchema, dashboardSchema, ordersExportQuerySchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../lib/define-route.ts';
import type { SessionUser } from '../accounts/session.ts';
import { getDashboard, getDashboardSeries, type DashboardContext } from './dashboard.service.ts';
import { exportOrders, exportSeries } from './orders-export.service.ts';

const tags = ['dashboard'];

function sendCsv(reply: FastifyReply, filename: string, body: Readable): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(body);
}

/** The seller's dashboard and exports (docs/decisions/019-seller-dashboard.md): always the session's own orders. */
export async function registerDashboardRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Figures and exports tolerate a moment's lag: they read the replica when there is one (read-routing.ts).
  const as = (request: FastifyRequest, user: SessionUser): DashboardContext => ({ db: ctx.reads.dbFor(request), clock: ctx.clock, user });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/seller/dashboard',
    auth: 'signedIn',
    summary: 'How your sales are doing over a period ending today, and what needs doing now',
    tags,
    querystring: dashboardQuerySchema,
    response: { 200: dashboardSchema },
    handler: ({ user, query, request }) => {
      const seller = as(request, user);
      return ctx.reads.read(request, (db) => getDashboard({ ...seller, db }, query));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/seller/dashboard.csv',
    auth: 'signedIn',
    summary: "The sales chart's figures as CSV (one row a bucket)",
    tags,
    querystring: dashboardQuerySchema,
    response: {},
    download: 'attachment',
    rateLimit: 'downloads',
    handler: async ({ user, query, request, reply }) => {
      const seller = as(request, user);
      const points = await ctx.reads.read(request, (db) => getDashboardSeries({ ...seller, db }, query));
      return sendCsv(reply, `sales-${query.period}.csv`, exportSeries(points));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/seller/orders.csv',
    auth: 'signedIn',
    summary: 'Your orders placed between two dates (UTC, both included) as CSV, one row per order line',
    tags,
    querystring: ordersExportQuerySchema,
    response: {},
    download: 'attachment',
    rateLimit: 'downloads',
    handler: ({ user, query, request, reply }) => sendCsv(reply, `orders-${query.from}-to-${query.to}.csv`, exportOrders(as(request, user), query)),
  });
}
