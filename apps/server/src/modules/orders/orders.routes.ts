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
import { defineRoute } from '../../lib/define-route.ts';
import { sendPage } from '../../lib/pagination.ts';
import type { SessionUser } from '../accounts/session.ts';
import { cancelOrder, confirmReceived, createOrder, getOrder, getShipTo, listOrders, putShipTo, type OrdersContext } from './orders.service.ts';
import { countOpenOrders } from './sales.service.ts';

/** Orders page like every list: the same bounded `limit` and opaque `cursor` as the catalog's. */

const orderHeaders = z.object({
  'idempotency-key': idempotencyKeySchema.optional().describe('The same key gives back the same order, never a second one'),
});
const tags = ['orders'];
const idParams = z.object({ id: z.string() });

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
  const as = (user: SessionUser): OrdersContext => ({ db: ctx.db, config: ctx.config, clock: ctx.clock, user });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/order',
    auth: 'signedIn',
    summary: 'Buy a product',
    tags,
    headers: orderHeaders,
    body: createOrderInputSchema,
    response: { 200: orderSchema, 201: orderSchema },
    errors: {
      403: 'Your own product, or (BUYER_VERIFICATION=required) your business is not verified',
      409: 'OUT_OF_STOCK: not enough stock; PRICE_CHANGED: the price is not the expectedUnitPrice you sent (error.unitPrice is the price now); CONFLICT: no price yet, or the product changed under every attempt to place the order (nothing ordered; try again)',
      422: 'BELOW_MOQ: fewer than the minimum; VALIDATION: a field (fieldErrors), not whole cases, or an Idempotency-Key used for another order',
    },
    rateLimit: 'orders',
    // A malformed key is refused (400) before the body is looked at.
    beforeInput: ({ request }) => void readIdempotencyKey(request),
    handler: async ({ user, body, request, reply }) => {
      const { order, replayed } = await createOrder(as(user), { ...body, idempotencyKey: readIdempotencyKey(request) });
      // A replay answers the first order again; 200 tells a client nothing new was created.
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(replayed ? 200 : 201).send(order);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/orders/:email',
    auth: 'signedIn',
    summary: 'One page of your orders, newest first',
    tags,
    params: z.object({ email: z.string() }),
    querystring: orderListQuerySchema,
    response: { 200: orderListSchema },
    handler: async ({ user, params, query, reply }) => {
      const page = await listOrders(as(user), { email: params.email, ...query });
      return sendPage(reply, `/api/orders/${encodeURIComponent(user.email)}`, { limit: query.limit, status: query.status }, page);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/order/:id',
    auth: 'signedIn',
    summary: 'One of your orders: lines, ship-to, timeline',
    tags,
    params: idParams,
    response: { 200: orderSchema },
    handler: ({ user, params }) => getOrder(as(user), { id: params.id }),
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/order/:id',
    auth: 'signedIn',
    summary: 'Cancel your order while it is placed; its quantity returns to stock',
    tags,
    params: idParams,
    response: { 200: cancelledOrderSchema },
    handler: ({ user, params }) => cancelOrder(as(user), { id: params.id }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/order/:id/received',
    auth: 'signedIn',
    summary: 'Confirm a shipped order arrived',
    tags,
    params: idParams,
    response: { 200: orderSchema },
    handler: ({ user, params }) => confirmReceived(as(user), { id: params.id }),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/account/ship-to',
    auth: 'signedIn',
    summary: 'Your saved ship-to address',
    tags,
    response: { 200: shipToAnswerSchema },
    handler: ({ user }) => getShipTo(as(user)),
  });

  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/api/account/ship-to',
    auth: 'signedIn',
    summary: 'Save your default ship-to address',
    tags,
    body: addressSchema,
    response: { 200: shipToAnswerSchema },
    handler: ({ user, body }) => putShipTo(as(user), body),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/product/:id/open-orders',
    auth: 'signedIn',
    summary: 'How many open orders hold your product (placed, accepted, shipped)',
    tags,
    params: idParams,
    response: { 200: openOrdersCountSchema },
    handler: ({ user, params }) => countOpenOrders(as(user), { id: params.id }),
  });
}
