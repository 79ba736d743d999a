import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createOrderInputSchema, idempotencyKeySchema, productListQuerySchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { parseInput } from '../../lib/validate.ts';
import { buildNextLink } from '../../lib/pagination.ts';
import { requireUser } from '../accounts/session.ts';
import { cancelledOrderResponseSchema, orderListResponseSchema, orderResponseSchema } from './order-json.ts';
import { cancelOrder, createOrder, listOrders } from './orders.service.ts';

/** Orders page like every list: the same bounded `limit` and opaque `cursor` as the catalog's. */
const orderListQuerySchema = productListQuerySchema.pick({ limit: true, cursor: true });

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

/** Ordering API (issue 5, docs/decisions/004-purchase.md). */
export async function registerOrderRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/api/order', { schema: { response: { 200: orderResponseSchema, 201: orderResponseSchema } } }, async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const idempotencyKey = readIdempotencyKey(request);
    const input = parseInput(createOrderInputSchema, request.body);
    const { order, replayed } = await createOrder({ db: ctx.db, user }, { ...input, idempotencyKey });
    // A replay answers the first order again; 200 tells a client nothing new was created.
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(replayed ? 200 : 201).send(order);
  });

  app.get<{ Params: { email: string } }>('/api/orders/:email', { schema: { response: { 200: orderListResponseSchema } } }, async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const query = parseInput(orderListQuerySchema, request.query);
    const page = await listOrders({ db: ctx.db, user }, { email: request.params.email, ...query });
    if (page.nextCursor) {
      reply.header('link', buildNextLink(`/api/orders/${encodeURIComponent(user.email)}`, { limit: query.limit }, page.nextCursor));
    }
    return page.items;
  });

  app.delete<{ Params: { id: string } }>('/api/order/:id', { schema: { response: { 200: cancelledOrderResponseSchema } } }, async (request) => {
    const user = await requireUser(ctx.auth, request);
    return cancelOrder({ db: ctx.db, user }, { id: request.params.id });
  });
}
