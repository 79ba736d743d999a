import { sql } from 'drizzle-orm';
import { customType, index, pgTable, text } from 'drizzle-orm/pg-core';

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
