import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  addressSchema,
  cancelledOrderSchema,
  createOrderInputSchema,
  openOrdersCountSchema,
  shipToAnswerSchema,
  idempotencyKeySchema,
  orderListQuerySchema,
  orderListSchema,
  orderSchema,
} from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { parseInput } from '../../lib/validate.ts';
import { sendPage } from '../../lib/pagination.ts';
import { requireUser } from '../accounts/session.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { cancelOrder, confirmReceived, createOrder, getOrder, getShipTo, listOrders, putShipTo, type OrdersContext } from './orders.service.ts';
import { countOpenOrders } from './sales.service.ts';
import { ORDERS_PER_IP_PER_MINUTE, ORDERS_PER_USER_PER_MINUTE } from '../../plugins/rate-limits/order-limits.ts';

/** Orders page like every list: the same bounded `limit` and opaque `cursor` as the catalog's. */

const orderHeaders = z.object({
  'idempotency-key': idempotencyKeySchema.optional().describe('The same key gives back the same order, never a second one'),
});
const tags = ['orders'];
const idParams = z.object({ id: z.string() });
type IdParams = { Params: { id: string } };

/** The optional `Idempotency-Key` header (Buy Now, the checkout); a malformed one is refused rather than ignored. */
export function readIdempotencyKey(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  const parsed = idempotencyKeySchema.safeParse(header);
  if (!parsed.success) {
    throw new AppError('BAD_REQUEST', 'The Idempotency-Key header must be 8 to 128 letters, digits, "-" or "_".');
  }
  return parsed.data;
}

/** Ordering API (docs/decisions/004-purchase.md). */
export async function registerOrderRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const as = async (request: FastifyRequest): Promise<OrdersContext> => ({
    db: ctx.db,
    config: ctx.config,
    clock: ctx.clock,
    user: await requireUser(ctx.auth, request),
  });

  app.post(
    '/api/order',
    routeContract({
      summary: 'Buy a product',
      tags,
      signedIn: true,
      headers: orderHeaders,
      body: createOrderInputSchema,
      response: { 200: orderSchema, 201: orderSchema },
      errors: {
        403: 'Your own product, or (BUYER_VERIFICATION=required) your business is not verified',
        409: 'OUT_OF_STOCK: not enough stock; PRICE_CHANGED: the price is not the expectedUnitPrice you sent (error.unitPrice is the price now); CONFLICT: no price yet, or the product changed under every attempt to place the order (nothing ordered; try again)',
        422: 'BELOW_MOQ: fewer than the minimum; VALIDATION: a field (fieldErrors), not whole cases, or an Idempotency-Key used for another order',
        429: `More than ${ORDERS_PER_USER_PER_MINUTE} order requests from you, or ${ORDERS_PER_IP_PER_MINUTE} from your network, in a minute (RATE_LIMIT)`,
      },
    }),
    async (request, reply) => {
    const orders = await as(request);
    const idempotencyKey = readIdempotencyKey(request);
    const input = parseInput(createOrderInputSchema, request.body);
    const { order, replayed } = await createOrder(orders, { ...input, idempotencyKey });
    // A replay answers the first order again; 200 tells a client nothing new was created.
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(replayed ? 200 : 201).send(order);
  });

  app.get<{ Params: { email: string } }>(
    '/api/orders/:email',
    routeContract({
      summary: 'One page of your orders, newest first',
      tags,
      signedIn: true,
      params: z.object({ email: z.string() }),
      querystring: orderListQuerySchema,
      response: { 200: orderListSchema },
    }),
    async (request, reply) => {
    const orders = await as(request);
    const query = parseInput(orderListQuerySchema, request.query);
    const page = await listOrders(orders, { email: request.params.email, ...query });
    return sendPage(reply, `/api/orders/${encodeURIComponent(orders.user.email)}`, { limit: query.limit, status: query.status }, page);
  });

  app.get<IdParams>(
    '/api/order/:id',
    routeContract({ summary: 'One of your orders: lines, ship-to, timeline', tags, signedIn: true, params: idParams, response: { 200: orderSchema } }),
    async (request) => getOrder(await as(request), { id: request.params.id }),
  );

  app.delete<IdParams>(
    '/api/order/:id',
    routeContract({ summary: 'Cancel your order while it is placed; its quantity returns to stock', tags, signedIn: true, params: idParams, response: { 200: cancelledOrderSchema } }),
    async (request) => cancelOrder(await as(request), { id: request.params.id }),
  );

  app.post<IdParams>(
    '/api/order/:id/received',
    routeContract({ summary: 'Confirm a shipped order arrived', tags, signedIn: true, params: idParams, response: { 200: orderSchema } }),
    async (request) => confirmReceived(await as(request), { id: request.params.id }),
  );

  app.get(
    '/api/account/ship-to',
    routeContract({ summary: 'Your saved ship-to address', tags, signedIn: true, response: { 200: shipToAnswerSchema } }),
    async (request) => getShipTo(await as(request)),
  );

  app.put(
    '/api/account/ship-to',
    routeContract({ summary: 'Save your default ship-to address', tags, signedIn: true, body: addressSchema, response: { 200: shipToAnswerSchema } }),
    async (request) => {
      const orders = await as(request);
      return putShipTo(orders, parseInput(addressSchema, request.body));
    },
  );

  app.get<IdParams>(
    '/api/product/:id/open-orders',
    routeContract({ summary: "How many open orders hold your product (placed, accepted, shipped)", tags, signedIn: true, params: idParams, response: { 200: openOrdersCountSchema } }),
    async (request) => countOpenOrders(await as(request), { id: request.params.id }),
  );
}
