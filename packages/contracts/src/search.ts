import { z } from 'zod';
import { productSchema } from './product.ts';
import { searchWordsSchema } from './search-query.ts';

export { effectiveSort, searchQuerySchema, type SearchQuery } from './search-query.ts';

export const suggestQuerySchema = z.object({ q: searchWordsSchema });

const facetCountSchema = z.object({ value: z.string(), count: z.int() });
export type FacetCount = z.infer<typeof facetCountSchema>;

export const searchFacetsSchema = z.object({
  categories: z.array(facetCountSchema),
  brands: z.array(facetCountSchema),
  price: z
    .object({ min: z.number(), max: z.number() })
    .nullable()
    .describe('Lowest and highest price (dollars) of the matches, ignoring the price filter; null when none has a price'),
});
export type SearchFacets = z.infer<typeof searchFacetsSchema>;

/**
 * GET /api/search's answer. The server's serialiser is compiled from this schema (an answer carries
 * exactly these fields) and /api/openapi.json shows it.
 */
export const searchResultSchema = z.object({
  items: z.array(productSchema),
  facets: searchFacetsSchema,
  total: z.int().describe('Matches of the whole query (every filter applied)'),
  terms: z.array(z.string()).describe('The database words the query matched, typo corrections included: what the page highlights'),
  nextCursor: z.string().nullable(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** `correction`: the typed words with a typo replaced by the nearest indexed word, offered first when nothing matched as typed. */
export const suggestionSchema = z.object({ kind: z.enum(['product', 'category', 'correction']), text: z.string() });
export type Suggestion = z.infer<typeof suggestionSchema>;

/** GET /api/search/suggest's answer. */
export const suggestResultSchema = z.object({ suggestions: z.array(suggestionSchema) });
export type SuggestResult = z.infer<typeof suggestResultSchema>;
