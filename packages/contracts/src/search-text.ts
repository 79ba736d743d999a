/** Search (docs/decisions/009-search.md), the parts without zod: the navbar's search box loads these and nothing more. */
export const SEARCH_SORTS = ['relevance', 'price_asc', 'price_desc', 'newest', 'rating'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const SEARCH_LIMITS = {
  /** Longer queries are refused; a buyer's search is a few words. */
  queryMax: 1000,
  /** Words of a query that count; the rest are ignored. */
  wordsMax: 8,
  /** A word is cut to this length: no product word is longer. */
  wordMax: 40,
  brandFilterMax: 20,
  brandFacetCount: 20,
  suggestionCount: 8,
  /** Suggestions start at this many characters: one letter matches most of the catalog. */
  suggestMinChars: 2,
} as const;

/**
 * The words of a query, lower-cased: letters and digits only, so nothing of it can reach the database
 * as tsquery or LIKE syntax. The browser highlights with the same split.
 */
export function splitSearchWords(q: string): string[] {
  return q
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, SEARCH_LIMITS.wordsMax)
    .map((w) => w.slice(0, SEARCH_LIMITS.wordMax));
}

/**
 * Lower case without accents: the same as the database's search_normalize (migration 0002), which
 * normalises the indexed text; search-normalize.test.ts holds the two to the same answers.
 */
export function normalizeSearchText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øłđħıæœß]/g, (c) => NON_DECOMPOSING[c] ?? c);
}

const NON_DECOMPOSING: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ħ: 'h', ı: 'i', æ: 'a', œ: 'o', ß: 's' };
