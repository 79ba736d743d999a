import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  cancelledOrderSchema,
  createOrderInputSchema,
  idempotencyKeySchema,
  orderListSchema,
  orderSchema,
  productListQuerySchema,
} from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { parseInput } from '../../lib/validate.ts';
import { sendPage } from '../../lib/pagination.ts';
import { requireUser } from '../accounts/session.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { cancelOrder, createOrder, listOrders } from './orders.service.ts';

/** Orders page like every list: the same bounded `limit` and opaque `cursor` as the catalog's. */
const orderListQuerySchema = productListQuerySchema.pick({ limit: true, cursor: true });

const orderHeaders = z.object({
  'idempotency-key': idempotencyKeySchema.optional().describe('The same key gives back the same order, never a second one'),
});
const tags = ['orders'];

/** The optional `Idempotency-Key` header; a malformed one is refused rather than ignored. */
function readIdempotencyKey(request: FastifyRequest): string | null {
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
  app.post(
    '/api/order',
    routeContract({ summary: 'Buy a product', tags, signedIn: true, headers: orderHeaders, body: createOrderInputSchema, response: { 200: orderSchema, 201: orderSchema } }),
    async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const idempotencyKey = readIdempotencyKey(request);
    const input = parseInput(createOrderInputSchema, request.body);
    const { order, replayed } = await createOrder({ db: ctx.db, user, buyerVerification: ctx.config.buyerVerification }, { ...input, idempotencyKey });
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
    const user = await requireUser(ctx.auth, request);
    const query = parseInput(orderListQuerySchema, request.query);
    const page = await listOrders({ db: ctx.db, user }, { email: request.params.email, ...query });
    return sendPage(reply, `/api/orders/${encodeURIComponent(user.email)}`, { limit: query.limit }, page);
  });

  app.delete<{ Params: { id: string } }>(
    '/api/order/:id',
    routeContract({ summary: 'Cancel your order; its quantity returns to stock', tags, signedIn: true, params: z.object({ id: z.string() }), response: { 200: cancelledOrderSchema } }),
    async (request) => {
    const user = await requireUser(ctx.auth, request);
    return cancelOrder({ db: ctx.db, user }, { id: request.params.id });
  });
}
