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
import { sendSharedAnswer, shareAnswer } from './shared-answer.ts';
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

/** The `Link` header announcing the page after this one, keeping the filters; null on the last page. */
function nextLinkOf<T>(path: string, query: ProductListQuery, page: Page<T>): string | null {
  if (!page.nextCursor) return null;
  return buildNextLink(path, { limit: query.limit, category: query.category, available: query.available }, page.nextCursor);
}

/** Sends one page as a bare array (the spec's shape) and announces the next one in `Link`. */
function sendPage<T>(reply: FastifyReply, path: string, query: ProductListQuery, page: Page<T>): T[] {
  const link = nextLinkOf(path, query, page);
  if (link) reply.header('link', link);
  return page.items;
}

/**
 * Catalog API (issue 4). Reads of the catalog are public (docs/decisions/003-catalog-api.md); every
 * write and a seller's own list need a session, and only the owner may change a product.
 */
export async function registerProductRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const list = { schema: { response: { 200: productListResponseSchema } } };
  const one = { schema: { response: { 200: productResponseSchema, 201: productResponseSchema } } };

  // Public reads: requests arriving together share one query and one serialised answer
  // (turn-batch.ts, shared-answer.ts); each is serialised with its route's response schema.
  app.get('/api/topproduct', list, async (request, reply) => {
    const top = await listTopProducts(ctx);
    return sendSharedAnswer(request, reply, shareAnswer(top, () => reply.serialize(top)));
  });

  app.get('/api/allproduct', list, async (request, reply) => {
    const query = parseInput(productListQuerySchema, request.query);
    const page = await listProducts(ctx, query);
    return sendSharedAnswer(request, reply, shareAnswer(page, () => reply.serialize(page.items), nextLinkOf('/api/allproduct', query, page)));
  });

  app.get<IdParams>('/api/product/:id', one, async (request, reply) => {
    const product = await getProduct(ctx, { id: request.params.id });
    return sendSharedAnswer(request, reply, shareAnswer(product, () => reply.serialize(product)));
  });

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
