import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  addProductInputSchema,
  productListQuerySchema,
  stockAdjustmentInputSchema,
  updateProductInputSchema,
  type ProductListQuery,
} from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../lib/validate.ts';
import { buildNextLink, type Page } from '../../lib/pagination.ts';
import { requireUser } from '../accounts/session.ts';
import { deletedProductResponseSchema, productListResponseSchema, productResponseSchema } from './product-json.ts';
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

/** Sends one page as a bare array (the spec's shape) and announces the next one in `Link`. */
function sendPage<T>(reply: FastifyReply, path: string, query: ProductListQuery, page: Page<T>): T[] {
  if (page.nextCursor) {
    const params = { limit: query.limit, category: query.category, available: query.available };
    reply.header('link', buildNextLink(path, params, page.nextCursor));
  }
  return page.items;
}

/**
 * Catalog API (issue 4). Reads of the catalog are public (docs/decisions/003-catalog-api.md); every
 * write and a seller's own list need a session, and only the owner may change a product.
 */
export async function registerProductRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const list = { schema: { response: { 200: productListResponseSchema } } };
  const one = { schema: { response: { 200: productResponseSchema, 201: productResponseSchema } } };

  app.get('/api/topproduct', list, async () => listTopProducts(ctx));

  app.get('/api/allproduct', list, async (request, reply) => {
    const query = parseInput(productListQuerySchema, request.query);
    return sendPage(reply, '/api/allproduct', query, await listProducts(ctx, query));
  });

  app.get<IdParams>('/api/product/:id', one, async (request) => getProduct(ctx, { id: request.params.id }));

  app.get<{ Params: { email: string } }>('/api/products/:email', list, async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const query = parseInput(productListQuerySchema, request.query);
    const page = await listOwnProducts({ db: ctx.db, user }, { email: request.params.email, query });
    return sendPage(reply, `/api/products/${encodeURIComponent(user.email)}`, query, page);
  });

  app.post('/api/addproduct', one, async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const input = parseInput(addProductInputSchema, request.body);
    const product = await addProduct({ db: ctx.db, user }, input);
    return reply.status(201).send(product);
  });

  app.put<IdParams>('/api/updateproduct/:id', one, async (request) => {
    const user = await requireUser(ctx.auth, request);
    const product = parseInput(updateProductInputSchema, request.body);
    return updateProduct({ db: ctx.db, user }, { id: request.params.id, product });
  });

  app.delete<IdParams>('/api/product/:id', { schema: { response: { 200: deletedProductResponseSchema } } }, async (request) => {
    const user = await requireUser(ctx.auth, request);
    return deleteProduct({ db: ctx.db, user }, { id: request.params.id });
  });

  app.patch<IdParams>('/api/products/:id', one, async (request) => {
    const user = await requireUser(ctx.auth, request);
    const adjustment = parseInput(stockAdjustmentInputSchema, request.body);
    return adjustStock({ db: ctx.db, user }, { id: request.params.id, adjustment });
  });
}
