import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dashboardQuerySchema, dashboardSchema, ordersExportQuerySchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../lib/validate.ts';
import { EXPORT_LIMIT_ERRORS } from '../../plugins/rate-limits/export-limits.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { requireUser } from '../accounts/session.ts';
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
  const as = async (request: FastifyRequest): Promise<DashboardContext> => ({ db: ctx.reads.dbFor(request), clock: ctx.clock, user: await requireUser(ctx.auth, request) });

  app.get(
    '/api/seller/dashboard',
    routeContract({
      summary: 'How your sales are doing over a period ending today, and what needs doing now',
      tags,
      signedIn: true,
      querystring: dashboardQuerySchema,
      response: { 200: dashboardSchema },
    }),
    async (request) => {
      const seller = await as(request);
      const query = parseInput(dashboardQuerySchema, request.query);
      return ctx.reads.read(request, (db) => getDashboard({ ...seller, db }, query));
    },
  );

  app.get(
    '/api/seller/dashboard.csv',
    routeContract({ summary: "The sales chart's figures as CSV (one row a bucket)", tags, signedIn: true, querystring: dashboardQuerySchema, response: {}, download: 'attachment', errors: EXPORT_LIMIT_ERRORS }),
    async (request, reply) => {
      const seller = await as(request);
      const query = parseInput(dashboardQuerySchema, request.query);
      const points = await ctx.reads.read(request, (db) => getDashboardSeries({ ...seller, db }, query));
      return sendCsv(reply, `sales-${query.period}.csv`, exportSeries(points));
    },
  );

  app.get(
    '/api/seller/orders.csv',
    routeContract({
      summary: 'Your orders placed between two dates (UTC, both included) as CSV, one row per order line',
      tags,
      signedIn: true,
      querystring: ordersExportQuerySchema,
      response: {},
      download: 'attachment',
      errors: EXPORT_LIMIT_ERRORS,
    }),
    async (request, reply) => {
      const seller = await as(request);
      const query = parseInput(ordersExportQuerySchema, request.query);
      return sendCsv(reply, `orders-${query.from}-to-${query.to}.csv`, exportOrders(seller, query));
    },
  );
}
