import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { parseInput } from '../../lib/validate.ts';
import { sendPage } from '../../lib/pagination.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { requireUser } from '../accounts/session.ts';
import type { OrdersContext } from './orders.service.ts';
import { acceptSale, acceptSales, countSales, declineSale, deliverSale, getSale, listSales, shipSale } from './sales.service.ts';

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

  app.post(
    '/api/sales/accept',
    routeContract({
      summary: 'Accept several placed orders with one ship-by date; each one refused says why',
      tags,
      signedIn: true,
      body: acceptOrdersInputSchema,
      response: { 200: acceptOrdersAnswerSchema },
    }),
    async (request) => acceptSales(await as(request), parseInput(acceptOrdersInputSchema, request.body)),
  );

  app.get(
    '/api/sales/counts',
    routeContract({ summary: 'How many of your orders are in each status', tags, signedIn: true, response: { 200: salesCountsSchema } }),
    async (request) => countSales(await as(request)),
  );

  app.get<IdParams>(
    '/api/sales/:id',
    routeContract({ summary: 'One order of your products', tags, signedIn: true, params: idParams, response: { 200: saleSchema } }),
    // `/api/sales/` (what `/api/sales/.` resolves to) has an empty id: plugins/canonical-path.ts answers 404 first.
    async (request) => getSale(await as(request), { id: request.params.id }),
  );

  /**
   * A seller's action on one order: POST /api/sales/{id}/{action}, its body (if it takes one) validated
   * by its contract schema, answered with the order as it now is.
   */
  const sellerAction = <Input extends object>(
    action: 'accept' | 'decline' | 'ship' | 'deliver',
    summary: string,
    body: z.ZodType<Input> | null,
    run: (sales: OrdersContext, input: { id: string } & Input) => Promise<Sale>,
  ) =>
    app.post<IdParams>(
      `/api/sales/:id/${action}`,
      routeContract({ summary, tags, signedIn: true, params: idParams, ...(body ? { body } : {}), response: { 200: saleSchema } }),
      async (request) => {
        const sales = await as(request);
        const input = body ? parseInput(body, request.body) : ({} as Input);
        return run(sales, { id: request.params.id, ...input });
      },
    );

  sellerAction('accept', 'Accept a placed order with a ship-by date', acceptOrderInputSchema, acceptSale);
  sellerAction('decline', 'Decline a placed order with a reason; its stock returns', declineOrderInputSchema, declineSale);
  sellerAction('ship', 'Mark an accepted order shipped, with carrier and tracking', shipOrderInputSchema, shipSale);
  // Takes no body; anything sent is ignored.
  sellerAction<object>('deliver', 'Mark a shipped order delivered', null, deliverSale);
}
