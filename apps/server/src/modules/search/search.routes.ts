import type { FastifyInstance } from 'fastify';
import { searchQuerySchema, searchResultSchema, suggestQuerySchema, suggestResultSchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../lib/define-route.ts';
import { searchProducts, suggest } from './search.service.ts';

const tags = ['search'];

/**
 * Search (docs/decisions/009-search.md): public reads, validated by the same schema as the results page's URL; the
 * answers are serialised from the contracts' schemas (packages/contracts/src/search.ts).
 */
export async function registerSearchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/search',
    auth: 'public',
    summary: 'Products matching words (typos tolerated), filters and a sort, with facet counts',
    tags,
    querystring: searchQuerySchema,
    response: { 200: searchResultSchema },
    handler: ({ query, request }) => ctx.reads.read(request, (db) => searchProducts({ db }, query)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/search/suggest',
    auth: 'public',
    summary: 'Up to 8 product names and categories completing what the buyer types',
    tags,
    querystring: suggestQuerySchema,
    response: { 200: suggestResultSchema },
    handler: ({ query, request }) => ctx.reads.read(request, (db) => suggest({ db }, query.q)),
  });
}
