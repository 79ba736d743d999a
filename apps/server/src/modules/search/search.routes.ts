import type { FastifyInstance } from 'fastify';
import { searchQuerySchema, suggestQuerySchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../lib/validate.ts';
import { productResponseSchema } from '../products/product-json.ts';
import { searchProducts, suggest } from './search.service.ts';

const facetCounts = {
  type: 'array',
  items: { type: 'object', required: ['value', 'count'], properties: { value: { type: 'string' }, count: { type: 'integer' } } },
} as const;

/** Serialiser schemas: an answer carries exactly the contract's fields (packages/contracts/src/search.ts). */
const searchResponseSchema = {
  type: 'object',
  required: ['items', 'facets', 'total', 'terms', 'nextCursor'],
  properties: {
    items: { type: 'array', items: productResponseSchema },
    facets: {
      type: 'object',
      required: ['categories', 'brands', 'price'],
      properties: {
        categories: facetCounts,
        brands: facetCounts,
        price: {
          type: ['object', 'null'],
          required: ['min', 'max'],
          properties: { min: { type: 'number' }, max: { type: 'number' } },
        },
      },
    },
    total: { type: 'integer' },
    terms: { type: 'array', items: { type: 'string' } },
    nextCursor: { type: ['string', 'null'] },
  },
} as const;

const suggestResponseSchema = {
  type: 'object',
  required: ['suggestions'],
  properties: {
    suggestions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'text'],
        properties: { kind: { type: 'string', enum: ['product', 'category'] }, text: { type: 'string' } },
      },
    },
  },
} as const;

/** Search (issue 17): public reads, validated by the same schema as the results page's URL. */
export async function registerSearchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/search', { schema: { response: { 200: searchResponseSchema } } }, async (request) => {
    const query = parseInput(searchQuerySchema, request.query);
    return searchProducts(ctx, query);
  });

  app.get('/api/search/suggest', { schema: { response: { 200: suggestResponseSchema } } }, async (request) => {
    const { q } = parseInput(suggestQuerySchema, request.query);
    return suggest(ctx, q);
  });
}
