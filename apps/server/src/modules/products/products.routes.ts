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
import { defineRoute } from '../../lib/define-route.ts';
import { nextPageLink, sendPage } from '../../lib/pagination.ts';
import { requireVerifiedEmail } from '../accounts/session.ts';
import { sendSharedAnswer, shareAnswer } from '../../lib/shared-answer.ts';
import {
  addProduct,
  adjustStock,
  deleteProduct,
  getProduct,
  listOwnProducts,
  listProducts,
  listTopProducts,
  relistProduct,
  updateProduct,
} from './products.service.ts';

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
  // (turn-batch.ts, shared-answer.ts), which is then kept for CATALOG_CACHE_MS unless a write comes
  // (answer-cache.ts); each is serialised with its route's response schema. They and the seller's own
  // list read the replica when there is one (plugins/read-routing.ts).
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/topproduct',
    auth: 'public',
    summary: 'The featured products: the 8 best rated',
    tags,
    response: { 200: productListSchema },
    handler: async ({ request, reply }) => {
      const answer = await ctx.catalogAnswers.answer(request, 'topproduct', async () => {
        const top = await ctx.reads.read(request, (db) => listTopProducts({ db }));
        return shareAnswer(top, () => reply.serialize(top));
      });
      return sendSharedAnswer(request, reply, answer);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/allproduct',
    auth: 'public',
    summary: 'One page of the catalog, newest first',
    tags,
    querystring: productListQuerySchema,
    response: { 200: productListSchema },
    handler: async ({ query, request, reply }) => {
      // The parsed query: its keys come in the schema's order, whatever order the URL had.
      const answer = await ctx.catalogAnswers.answer(request, `allproduct ${JSON.stringify(query)}`, async () => {
        const page = await ctx.reads.read(request, (db) => listProducts({ db }, query));
        return shareAnswer(
          page,
          () => reply.serialize(page.items),
          () => nextPageLink('/api/allproduct', linkParamsOf(query), page),
        );
      });
      return sendSharedAnswer(request, reply, answer);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/product/:id',
    auth: 'public',
    summary: 'One product',
    tags,
    params: idParams,
    response: { 200: productSchema },
    handler: async ({ params, request, reply }) => {
      const answer = await ctx.catalogAnswers.answer(request, `product ${params.id}`, async () => {
        const product = await ctx.reads.read(request, (db) => getProduct({ db }, { id: params.id }));
        return shareAnswer(product, () => reply.serialize(product));
      });
      return sendSharedAnswer(request, reply, answer);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/products/:email',
    auth: 'signedIn',
    summary: 'One page of your own products, newest first, optionally searched and filtered by stock',
    tags,
    params: emailParams,
    querystring: myProductsQuerySchema,
    response: { 200: productListSchema },
    handler: async ({ user, params, query, request, reply }) => {
      const page = await ctx.reads.read(request, (db) => listOwnProducts({ db, user }, { email: params.email, query }));
      return sendPage(reply, `/api/products/${encodeURIComponent(user.email)}`, { ...linkParamsOf(query), q: query.q, stock: query.stock }, page);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/addproduct',
    auth: 'signedIn',
    summary: 'List a new product',
    tags,
    body: addProductInputSchema,
    response: { 201: productSchema },
    beforeInput: ({ user }) => {
      if (ctx.config.requireVerifiedSellers) requireVerifiedEmail(user, 'list products');
    },
    handler: async ({ user, body, reply }) => reply.status(201).send(await addProduct({ db: ctx.db, user }, body)),
  });

  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/api/updateproduct/:id',
    auth: 'signedIn',
    summary: 'Replace your product',
    tags,
    params: idParams,
    body: updateProductInputSchema,
    response: { 200: productSchema },
    handler: ({ user, params, body }) => updateProduct({ db: ctx.db, user }, { id: params.id, product: body }),
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/product/:id',
    auth: 'signedIn',
    summary: 'Delete your product',
    tags,
    params: idParams,
    response: { 200: deletedProductSchema },
    handler: ({ user, params }) => deleteProduct({ db: ctx.db, user }, { id: params.id }),
  });

  defineRoute(app, ctx, {
    method: 'PATCH',
    url: '/api/products/:id',
    auth: 'signedIn',
    summary: 'Adjust the stock of your product',
    tags,
    params: idParams,
    body: stockAdjustmentInputSchema,
    response: { 200: productSchema },
    handler: ({ user, params, body }) => adjustStock({ db: ctx.db, user }, { id: params.id, adjustment: body }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/my/products/:id/relist',
    auth: 'signedIn',
    summary: 'List your unlisted product again (docs/product/rules.md, "Unlisted products")',
    tags,
    params: idParams,
    response: { 200: productSchema },
    handler: ({ user, params }) => relistProduct({ db: ctx.db, user }, { id: params.id }),
  });
}
