import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  acceptOrderInputSchema,
  declineOrderInputSchema,
  saleListSchema,
  saleSchema,
  salesCountsSchema,
  salesListQuerySchema,
  shipOrderInputSchema,
} from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../lib/validate.ts';
import { notFound } from '../../lib/app-error.ts';
import { sendPage } from '../../lib/pagination.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { requireUser } from '../accounts/session.ts';
import type { OrdersContext } from './orders.service.ts';
import { acceptSale, countSales, declineSale, deliverSale, getSale, listSales, shipSale } from './sales.service.ts';

const tags = ['sales'];
const idParams = z.object({ id: z.string() });
type IdParams = { Params: { id: string } };

/** The seller's order desk (docs/decisions/012-order-workflow.md): orders of the seller's products. */
export async function registerSalesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const as = async (request: FastifyRequest): Promise<OrdersContext> => ({
    db: ctx.db,
    config: ctx.config,
    clock: ctx.clock,
    user: await requireUser(ctx.auth, request),
  });

  app.get(
    '/api/sales',
    routeContract({ summary: 'One page of orders of your products, newest first', tags, signedIn: true, querystring: salesListQuerySchema, response: { 200: saleListSchema } }),
    async (request, reply) => {
      const sales = await as(request);
      const query = parseInput(salesListQuerySchema, request.query);
      const page = await listSales(sales, query);
      return sendPage(reply, '/api/sales', { limit: query.limit, status: query.status }, page);
    },
  );

  app.get(
    '/api/sales/counts',
    routeContract({ summary: 'How many of your orders are in each status', tags, signedIn: true, response: { 200: salesCountsSchema } }),
    async (request) => countSales(await as(request)),
  );

  app.get<IdParams>(
    '/api/sales/:id',
    routeContract({ summary: 'One order of your products', tags, signedIn: true, params: idParams, response: { 200: saleSchema } }),
    async (request) => {
      // `/api/sales/` (what `/api/sales/.` resolves to) names no order: 404 before asking who is calling,
      // as for any path that is not a route.
      if (!request.params.id) throw notFound();
      return getSale(await as(request), { id: request.params.id });
    },
  );

  app.post<IdParams>(
    '/api/sales/:id/accept',
    routeContract({ summary: 'Accept a placed order with a ship-by date', tags, signedIn: true, params: idParams, body: acceptOrderInputSchema, response: { 200: saleSchema } }),
    async (request) => {
      const sales = await as(request);
      return acceptSale(sales, { id: request.params.id, ...parseInput(acceptOrderInputSchema, request.body) });
    },
  );

  app.post<IdParams>(
    '/api/sales/:id/decline',
    routeContract({ summary: 'Decline a placed order with a reason; its stock returns', tags, signedIn: true, params: idParams, body: declineOrderInputSchema, response: { 200: saleSchema } }),
    async (request) => {
      const sales = await as(request);
      return declineSale(sales, { id: request.params.id, ...parseInput(declineOrderInputSchema, request.body) });
    },
  );

  app.post<IdParams>(
    '/api/sales/:id/ship',
    routeContract({ summary: 'Mark an accepted order shipped, with carrier and tracking', tags, signedIn: true, params: idParams, body: shipOrderInputSchema, response: { 200: saleSchema } }),
    async (request) => {
      const sales = await as(request);
      return shipSale(sales, { id: request.params.id, ...parseInput(shipOrderInputSchema, request.body) });
    },
  );

  app.post<IdParams>(
    '/api/sales/:id/deliver',
    routeContract({ summary: 'Mark a shipped order delivered', tags, signedIn: true, params: idParams, response: { 200: saleSchema } }),
    async (request) => deliverSale(await as(request), { id: request.params.id }),
  );
}
