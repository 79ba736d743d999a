import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { cartAddAnswerSchema, createListInputSchema, savedListSchema, savedListsSchema, setListLineInputSchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../lib/validate.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { requireUser } from '../accounts/session.ts';
import type { CartContext } from './cart.service.ts';
import { createList, deleteList, getList, listLists, listToCart, removeListLine, reorder, setListLine } from './lists.service.ts';

const tags = ['lists'];
const idParams = z.object({ id: z.string() });
const lineParams = z.object({ id: z.string(), productId: z.string() });
type IdParams = { Params: { id: string } };
type LineParams = { Params: { id: string; productId: string } };

const deletedListSchema = z.object({ id: z.string(), deleted: z.boolean() });

/** Saved order lists and reorder (docs/decisions/017-cart-and-checkout.md): the caller's own only. */
export async function registerListRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const as = async (request: FastifyRequest): Promise<CartContext> => ({ db: ctx.db, config: ctx.config, user: await requireUser(ctx.auth, request) });

  app.get('/api/lists', routeContract({ summary: 'Your saved lists with their lines', tags, signedIn: true, response: { 200: savedListsSchema } }), async (request) =>
    listLists(await as(request)),
  );

  app.post(
    '/api/lists',
    routeContract({ summary: 'Save a new list', tags, signedIn: true, body: createListInputSchema, response: { 201: savedListSchema } }),
    async (request, reply) => {
      const lists = await as(request);
      return reply.status(201).send(await createList(lists, parseInput(createListInputSchema, request.body)));
    },
  );

  app.get<IdParams>('/api/lists/:id', routeContract({ summary: 'One of your lists', tags, signedIn: true, params: idParams, response: { 200: savedListSchema } }), async (request) =>
    getList(await as(request), { id: request.params.id }),
  );

  app.delete<IdParams>('/api/lists/:id', routeContract({ summary: 'Delete one of your lists', tags, signedIn: true, params: idParams, response: { 200: deletedListSchema } }), async (request) =>
    deleteList(await as(request), { id: request.params.id }),
  );

  app.put<LineParams>(
    '/api/lists/:id/lines/:productId',
    routeContract({ summary: 'Set a line of your list (0 removes it)', tags, signedIn: true, params: lineParams, body: setListLineInputSchema, response: { 200: savedListSchema } }),
    async (request) => {
      const lists = await as(request);
      const { quantity } = parseInput(setListLineInputSchema, request.body);
      return setListLine(lists, { id: request.params.id, productId: request.params.productId, quantity });
    },
  );

  app.delete<LineParams>(
    '/api/lists/:id/lines/:productId',
    routeContract({ summary: 'Remove a line of your list', tags, signedIn: true, params: lineParams, response: { 200: savedListSchema } }),
    async (request) => removeListLine(await as(request), { id: request.params.id, productId: request.params.productId }),
  );

  app.post<IdParams>(
    '/api/lists/:id/to-cart',
    routeContract({ summary: 'Add every line of your list to the cart', tags, signedIn: true, params: idParams, response: { 200: cartAddAnswerSchema } }),
    async (request) => listToCart(await as(request), { id: request.params.id }),
  );

  app.post<IdParams>(
    '/api/order/:id/reorder',
    routeContract({ summary: "Add your order's lines to the cart at today's prices", tags: ['orders'], signedIn: true, params: idParams, response: { 200: cartAddAnswerSchema } }),
    async (request) => reorder(await as(request), { id: request.params.id }),
  );
}
