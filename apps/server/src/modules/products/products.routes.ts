import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addProductInputSchema,
  deletedProductSchema,
  myProductsQuerySchema,
  productListQuerySchema,
  productListSchema,
  productSchema,
  stockAdjustmentInputSchema,
  updateProductInputSchema,
  type ProductListQuery,
} from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../lib/validate.ts';
import { nextPageLink, sendPage } from '../../lib/pagination.ts';
import { requireUser, requireVerifiedEmail } from '../accounts/session.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { sendSharedAnswer, shareAnswer } from '../../lib/shared-answer.ts';
import {
  addProduct,
  adjustStock,
  deleteProduct,
  getProduct,
  listOwnProducts,
  listProducts,
  listTopProducts,
  updateProduct,
} from './products.service.ts';

type IdParams = { Params: { id: string } };

/** The filters a next-page link keeps. */
function linkParamsOf(query: ProductListQuery) {
  return { limit: query.limit, category: query.category, available: query.available };
}

const idParams = z.object({ id: z.string().describe('The product id') });
const emailParams = z.object({ email: z.string().describe("The signed-in user's own email") });
const tags = ['products'];

/**
 * Catalog API. Reads of the catalog are public (docs/decisions/003-catalog-api.md); every
 * write and a seller's own list need a session, and only the owner may change a product.
 */
export async function registerProductRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Public reads: requests arriving together share one query and one serialised answer
  // (turn-batch.ts, shared-answer.ts); each is serialised with its route's response schema. They and
  // the seller's own list read the replica when there is one (plugins/read-routing.ts).
  app.get('/api/topproduct', routeContract({ summary: 'The featured products: the 8 best rated', tags, response: { 200: productListSchema } }), async (request, reply) => {
    const top = await ctx.reads.read(request, (db) => listTopProducts({ db }));
    return sendSharedAnswer(request, reply, shareAnswer(top, () => reply.serialize(top)));
  });

  app.get('/api/allproduct', routeContract({ summary: 'One page of the catalog, newest first', tags, querystring: productListQuerySchema, response: { 200: productListSchema } }), async (request, reply) => {
    const query = parseInput(productListQuerySchema, request.query);
    const page = await ctx.reads.read(request, (db) => listProducts({ db }, query));
    return sendSharedAnswer(request, reply, shareAnswer(page, () => reply.serialize(page.items), () => nextPageLink('/api/allproduct', linkParamsOf(query), page)));
  });

  app.get<IdParams>('/api/product/:id', routeContract({ summary: 'One product', tags, params: idParams, response: { 200: productSchema } }), async (request, reply) => {
    const product = await ctx.reads.read(request, (db) => getProduct({ db }, { id: request.params.id }));
    return sendSharedAnswer(request, reply, shareAnswer(product, () => reply.serialize(product)));
  });

  app.get<{ Params: { email: string } }>(
    '/api/products/:email',
    routeContract({
      summary: 'One page of your own products, newest first, optionally searched and filtered by stock',
      tags,
      signedIn: true,
      params: emailParams,
      querystring: myProductsQuerySchema,
      response: { 200: productListSchema },
    }),
    async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const query = parseInput(myProductsQuerySchema, request.query);
    const page = await ctx.reads.read(request, (db) => listOwnProducts({ db, user }, { email: request.params.email, query }));
    return sendPage(reply, `/api/products/${encodeURIComponent(user.email)}`, { ...linkParamsOf(query), q: query.q, stock: query.stock }, page);
  });

  app.post('/api/addproduct', routeContract({ summary: 'List a new product', tags, signedIn: true, body: addProductInputSchema, response: { 201: productSchema } }), async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    if (ctx.config.requireVerifiedSellers) requireVerifiedEmail(user, 'list products');
    const input = parseInput(addProductInputSchema, request.body);
    const product = await addProduct({ db: ctx.db, user }, input);
    return reply.status(201).send(product);
  });

  app.put<IdParams>(
    '/api/updateproduct/:id',
    routeContract({ summary: 'Replace your product', tags, signedIn: true, params: idParams, body: updateProductInputSchema, response: { 200: productSchema } }),
    async (request) => {
    const user = await requireUser(ctx.auth, request);
    const product = parseInput(updateProductInputSchema, request.body);
    return updateProduct({ db: ctx.db, user }, { id: request.params.id, product });
  });

  app.delete<IdParams>('/api/product/:id', routeContract({ summary: 'Delete your product', tags, signedIn: true, params: idParams, response: { 200: deletedProductSchema } }), async (request) => {
    const user = await requireUser(ctx.auth, request);
    return deleteProduct({ db: ctx.db, user }, { id: request.params.id });
  });

  app.patch<IdParams>(
    '/api/products/:id',
    routeContract({ summary: 'Adjust the stock of your product', tags, signedIn: true, params: idParams, body: stockAdjustmentInputSchema, response: { 200: productSchema } }),
    async (request) => {
    const user = await requireUser(ctx.auth, request);
    const adjustment = parseInput(stockAdjustmentInputSchema, request.body);
    return adjustStock({ db: ctx.db, user }, { id: request.params.id, adjustment });
  });
}
