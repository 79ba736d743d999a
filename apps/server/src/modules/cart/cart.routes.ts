import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { parseInput } from '../../lib/validate.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { requireUser } from '../accounts/session.ts';
import { readIdempotencyKey } from '../orders/orders.routes.ts';
import { addCartLines, findSkus, getCart, removeCartLine, setCartLine, type CartContext } from './cart.service.ts';
import { checkout } from './checkout.service.ts';

const tags = ['cart'];
const checkoutHeaders = z.object({
  'idempotency-key': idempotencyKeySchema.describe('Required: the same key gives back the same orders, never new ones'),
});
const productParams = z.object({ productId: z.string().describe('The product id') });
type ProductParams = { Params: { productId: string } };

/** The buyer's cart (docs/decisions/017-cart-and-checkout.md): every call under the session, on the caller's own cart. */
export async function registerCartRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const as = async (request: FastifyRequest): Promise<CartContext> => ({ db: ctx.db, config: ctx.config, user: await requireUser(ctx.auth, request) });

  app.get(
    '/api/cart',
    routeContract({ summary: 'Your cart, priced as the checkout would charge it now, grouped by seller', tags, signedIn: true, response: { 200: cartSchema } }),
    async (request) => getCart(await as(request)),
  );

  app.put<ProductParams>(
    '/api/cart/lines/:productId',
    routeContract({ summary: 'Set a cart line (0 removes it)', tags, signedIn: true, params: productParams, body: setCartLineInputSchema, response: { 200: cartSchema } }),
    async (request) => {
      const cart = await as(request);
      const { quantity } = parseInput(setCartLineInputSchema, request.body);
      return setCartLine(cart, { productId: request.params.productId, quantity });
    },
  );

  app.delete<ProductParams>(
    '/api/cart/lines/:productId',
    routeContract({ summary: 'Remove a cart line', tags, signedIn: true, params: productParams, response: { 200: cartSchema } }),
    async (request) => removeCartLine(await as(request), { productId: request.params.productId }),
  );

  app.post(
    '/api/cart/lines',
    routeContract({
      summary: 'Add many rows at once (quick order, paste): each row answered on its own',
      tags,
      signedIn: true,
      body: addCartLinesInputSchema,
      response: { 200: cartAddAnswerSchema },
    }),
    async (request) => {
      const cart = await as(request);
      return addCartLines(cart, parseInput(addCartLinesInputSchema, request.body));
    },
  );

  app.get(
    '/api/skus',
    routeContract({ summary: "Other sellers' SKUs starting with q (quick order's typeahead)", tags, signedIn: true, querystring: skuQuerySchema, response: { 200: skuMatchListSchema } }),
    async (request) => {
      const cart = await as(request);
      return findSkus(cart, parseInput(skuQuerySchema, request.query));
    },
  );

  app.post(
    '/api/checkout',
    routeContract({
      summary: 'Check out the whole cart: one order per seller, all or nothing',
      tags,
      signedIn: true,
      headers: checkoutHeaders,
      body: checkoutInputSchema,
      response: { 200: checkoutAnswerSchema, 201: checkoutAnswerSchema },
    }),
    async (request, reply) => {
      const cart = await as(request);
      const idempotencyKey = readIdempotencyKey(request);
      const input = parseInput(checkoutInputSchema, request.body);
      const { orders, replayed } = await checkout({ ...cart, clock: ctx.clock }, { ...input, idempotencyKey });
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(replayed ? 200 : 201).send({ orders });
    },
  );
}
