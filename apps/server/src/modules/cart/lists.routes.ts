import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { cartAddAnswerSchema, createListInputSchema, savedListSchema, savedListsSchema, setListLineInputSchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../lib/define-route.ts';
import type { SessionUser } from '../accounts/session.ts';
import type { CartContext } from './cart.service.ts';
import { createList, deleteList, getList, listLists, listToCart, removeListLine, reorder, setListLine } from './lists.service.ts';

const tags = ['lists'];
const idParams = z.object({ id: z.string() });
const lineParams = z.object({ id: z.string(), productId: z.string() });

const deletedListSchema = z.object({ id: z.string(), deleted: z.boolean() });

/** Saved order lists and reorder (docs/decisions/017-cart-and-checkout.md): the caller's own only. */
export async function registerListRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const as = (user: SessionUser): CartContext => ({ db: ctx.db, config: ctx.config, user });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/lists',
    auth: 'signedIn',
    summary: 'Your saved lists with their lines',
    tags,
    response: { 200: savedListsSchema },
    handler: ({ user }) => listLists(as(user)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/lists',
    auth: 'signedIn',
    summary: 'Save a new list',
    tags,
    body: createListInputSchema,
    response: { 201: savedListSchema },
    handler: async ({ user, body, reply }) => reply.status(201).send(await createList(as(user), body)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/lists/:id',
    auth: 'signedIn',
    summary: 'One of your lists',
    tags,
    params: idParams,
    response: { 200: savedListSchema },
    handler: ({ user, params }) => getList(as(user), { id: params.id }),
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/lists/:id',
    auth: 'signedIn',
    summary: 'Delete one of your lists',
    tags,
    params: idParams,
    response: { 200: deletedListSchema },
    handler: ({ user, params }) => deleteList(as(user), { id: params.id }),
  });

  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/api/lists/:id/lines/:productId',
    auth: 'signedIn',
    summary: 'Set a line of your list (0 removes it)',
    tags,
    params: lineParams,
    body: setListLineInputSchema,
    response: { 200: savedListSchema },
    handler: ({ user, params, body }) => setListLine(as(user), { id: params.id, productId: params.productId, quantity: body.quantity }),
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/lists/:id/lines/:productId',
    auth: 'signedIn',
    summary: 'Remove a line of your list',
    tags,
    params: lineParams,
    response: { 200: savedListSchema },
    handler: ({ user, params }) => removeListLine(as(user), { id: params.id, productId: params.productId }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/lists/:id/to-cart',
    auth: 'signedIn',
    summary: 'Add every line of your list to the cart',
    tags,
    params: idParams,
    response: { 200: cartAddAnswerSchema },
    handler: ({ user, params }) => listToCart(as(user), { id: params.id }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/order/:id/reorder',
    auth: 'signedIn',
    summary: "Add your order's lines to the cart at today's prices",
    tags: ['orders'],
    params: idParams,
    response: { 200: cartAddAnswerSchema },
    handler: ({ user, params }) => reorder(as(user), { id: params.id }),
  });
}
