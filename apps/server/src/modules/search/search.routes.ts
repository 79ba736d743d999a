import type { FastifyInstance } from 'fastify';
import { searchQuerySchema, searchResultSchema, suggestQuerySchema, suggestResultSchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../lib/validate.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { searchProducts, suggest } from './search.service.ts';

const tags = ['search'];

/**
 * Search (docs/decisions/009-search.md): public reads, validated by the same schema as the results page's URL; the
 * answers are serialised from the contracts' schemas (packages/contracts/src/search.ts).
 */
export async function registerSearchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(
    '/api/search',
    routeContract({ summary: 'Products matching words (typos tolerated), filters and a sort, with facet counts', tags, querystring: searchQuerySchema, response: { 200: searchResultSchema } }),
    async (request) => {
      const query = parseInput(searchQuerySchema, request.query);
      return ctx.reads.read(request, (db) => searchProducts({ db }, query));
    },
  );

  app.get(
    '/api/search/suggest',
    routeContract({ summary: 'Up to 8 product names and categories completing what the buyer types', tags, querystring: suggestQuerySchema, response: { 200: suggestResultSchema } }),
    async (request) => {
      const { q } = parseInput(suggestQuerySchema, request.query);
      return ctx.reads.read(request, (db) => suggest({ db }, q));
    },
  );
}
