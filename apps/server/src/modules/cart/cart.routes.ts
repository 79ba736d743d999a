import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addCartLinesInputSchema,
  cartAddAnswerSchema,
  cartSchema,
  checkoutAnswerSchema,
  checkoutInputSchema,
  idempotencyKeySchema,
  setCartLineInputSchema,
  skuMatchListSchema,
  skuQuerySchema,
} from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../lib/define-route.ts';
import type { SessionUser } from '../accounts/session.ts';
import { readIdempotencyKey } from '../orders/index.ts';
import { addCartLines, findSkus, getCart, removeCartLine, setCartLine, type CartContext } from './cart.service.ts';
import { checkout } from './checkout.service.ts';

const tags = ['cart'];
const checkoutHeaders = z.object({
  'idempotency-key': idempotencyKeySchema.describe('Required: the same key gives back the same orders, never new ones'),
});
const productParams = z.object({ productId: z.string().describe('The product id') });

/** The buyer's cart (docs/decisions/017-cart-and-checkout.md): every call under the session, on the caller's own cart. */
export async function registerCartRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const as = (user: SessionUser): CartContext => ({ db: ctx.db, config: ctx.config, user });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/cart',
    auth: 'signedIn',
    summary: 'Your cart, priced as the checkout would charge it now, grouped by seller',
    tags,
    response: { 200: cartSchema },
    handler: ({ user }) => getCart(as(user)),
  });

  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/api/cart/lines/:productId',
    auth: 'signedIn',
    summary: 'Set a cart line (0 removes it)',
    tags,
    params: productParams,
    body: setCartLineInputSchema,
    response: { 200: cartSchema },
    handler: ({ user, params, body }) => setCartLine(as(user), { productId: params.productId, quantity: body.quantity }),
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/cart/lines/:productId',
    auth: 'signedIn',
    summary: 'Remove a cart line',
    tags,
    params: productParams,
    response: { 200: cartSchema },
    handler: ({ user, params }) => removeCartLine(as(user), { productId: params.productId }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/cart/lines',
    auth: 'signedIn',
    summary: 'Add many rows at once (quick order, paste): each row answered on its own',
    tags,
    body: addCartLinesInputSchema,
    response: { 200: cartAddAnswerSchema },
    handler: ({ user, body }) => addCartLines(as(user), body),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/skus',
    auth: 'signedIn',
    summary: "Other sellers' SKUs starting with q (quick order's typeahead)",
    tags,
    querystring: skuQuerySchema,
    response: { 200: skuMatchListSchema },
    handler: ({ user, query }) => findSkus(as(user), query),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/checkout',
    auth: 'signedIn',
    summary: 'Check out the whole cart: one order per seller, all or nothing',
    tags,
    headers: checkoutHeaders,
    body: checkoutInputSchema,
    response: { 200: checkoutAnswerSchema, 201: checkoutAnswerSchema },
    rateLimit: 'orders',
    // A malformed key is refused (400) before the body is looked at.
    beforeInput: ({ request }) => void readIdempotencyKey(request),
    handler: async ({ user, body, request, reply }) => {
      const { orders, replayed } = await checkout({ ...as(user), clock: ctx.clock }, { ...body, idempotencyKey: readIdempotencyKey(request) });
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(replayed ? 200 : 201).send({ orders });
    },
  });
}
