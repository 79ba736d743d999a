import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  acceptOrderInputSchema,
  acceptOrdersAnswerSchema,
  acceptOrdersInputSchema,
  declineOrderInputSchema,
  saleListSchema,
  saleSchema,
  salesCountsSchema,
  salesListQuerySchema,
  shipOrderInputSchema,
  type Sale,
} from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../lib/define-route.ts';
import { sendPage } from '../../lib/pagination.ts';
import type { SessionUser } from '../accounts/session.ts';
import type { OrdersContext } from './orders.service.ts';
import { acceptSale, acceptSales, countSales, declineSale, deliverSale, getSale, listSales, shipSale } from './sales.service.ts';

const tags = ['sales'];
const idParams = z.object({ id: z.string() });

/** The seller's order desk (docs/decisions/012-order-workflow.md): orders of the seller's products. */
export async function registerSalesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const as = (user: SessionUser): OrdersContext => ({ db: ctx.db, config: ctx.config, clock: ctx.clock, user });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sales',
    auth: 'signedIn',
    summary: 'One page of orders of your products, newest first',
    tags,
    querystring: salesListQuerySchema,
    response: { 200: saleListSchema },
    handler: async ({ user, query, reply }) => {
      const page = await listSales(as(user), query);
      return sendPage(reply, '/api/sales', { limit: query.limit, status: query.status }, page);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sales/accept',
    auth: 'signedIn',
    summary: 'Accept several placed orders with one ship-by date; each one refused says why',
    tags,
    body: acceptOrdersInputSchema,
    response: { 200: acceptOrdersAnswerSchema },
    handler: ({ user, body }) => acceptSales(as(user), body),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sales/counts',
    auth: 'signedIn',
    summary: 'How many of your orders are in each status',
    tags,
    response: { 200: salesCountsSchema },
    handler: ({ user }) => countSales(as(user)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sales/:id',
    auth: 'signedIn',
    summary: 'One order of your products',
    tags,
    params: idParams,
    response: { 200: saleSchema },
    // `/api/sales/` (what `/api/sales/.` resolves to) has an empty id: plugins/canonical-path.ts answers 404 first.
    handler: ({ user, params }) => getSale(as(user), { id: params.id }),
  });

  /** A seller's action on one order: POST /api/sales/{id}/{action}, answered with the order as it now is. */
  const sellerAction = <B extends z.ZodType<object> | undefined>(
    action: 'accept' | 'decline' | 'ship' | 'deliver',
    summary: string,
    body: B,
    run: (sales: OrdersContext, input: { id: string } & (B extends z.ZodType<object> ? z.output<B> : object)) => Promise<Sale>,
  ) =>
    defineRoute(app, ctx, {
      method: 'POST',
      url: `/api/sales/:id/${action}`,
      auth: 'signedIn',
      summary,
      tags,
      params: idParams,
      body,
      response: { 200: saleSchema },
      handler: ({ user, params, body: input }) => run(as(user), { id: params.id, ...(input ?? {}) } as Parameters<typeof run>[1]),
    });

  sellerAction('accept', 'Accept a placed order with a ship-by date', acceptOrderInputSchema, acceptSale);
  sellerAction('decline', 'Decline a placed order with a reason; its stock returns', declineOrderInputSchema, declineSale);
  sellerAction('ship', 'Mark an accepted order shipped, with carrier and tracking', shipOrderInputSchema, shipSale);
  // Takes no body; anything sent is ignored.
  sellerAction('deliver', 'Mark a shipped order delivered', undefined, deliverSale);
}
