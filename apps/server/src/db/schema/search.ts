import { sql } from 'drizzle-orm';
import { bigint, boolean, check, customType, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';

export const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

/**
 * Every word (3+ characters, with a letter) that a product's name, brand, category or description has
 * ever held, normalised as the search index is (migration 0002's trigger keeps it filled). Typo
 * tolerance looks a misspelt word up here by trigram distance, which is cheap on this small table, and
 * then searches the products' full-text index for the words it found. Words of deleted products stay:
 * they only ever lead to an empty result.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    term: text('term').primaryKey(),
  },
  (t) => [index('search_terms_trgm_idx').using('gist', sql`${t.term} gist_trgm_ops`)],
);

/**
 * One row whose version changes with every product change that can change a search answer's choice
 * of products, their order or its facets (migration 0006's triggers, at commit). Search caches its
 * answers under the version it read (modules/search/search-cache.ts), so a product written through
 * any process is seen by the very next search in every process.
 */
export const searchCatalogVersion = pgTable(
  'search_catalog_version',
  {
    id: smallint('id').primaryKey().default(1),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('search_catalog_version_single_row', sql`${t.id} = 1`)],
);

/**
 * The catalog counted for search's facets (migration 0007's triggers keep it, at commit, with the
 * catalog version): one row per category, brand, MOQ and "in stock", holding its products' prices
 * sorted and how many have no price. A search without words counts its facets from these few hundred
 * rows instead of every product: a price band is two binary searches in `prices` (width_bucket).
 */
export const searchFacetCells = pgTable(
  'search_facet_cells',
  {
    category: text('category').notNull(),
    brandname: text('brandname').notNull(),
    minquantity: integer('minquantity').notNull(),
    inStock: boolean('in_stock').notNull(),
    prices: integer('prices')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    unpriced: integer('unpriced').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.category, t.brandname, t.minquantity, t.inStock] })],
);
