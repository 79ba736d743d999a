import { normalizeSearchText, splitSearchWords } from '@bulkcart/contracts';

/** One word of the query after the typo lookup (search.queries.ts lookupWords). */
export interface LookedUpWord {
  word: string;
  /** The word starts some indexed word (or is too short or numeric to correct). */
  isKnown: boolean;
  /** Indexed words close to it by trigram similarity, closest first; empty when it is known. */
  near: string[];
}

/** The query's words as the index stores them: split, lower case, accents off. */
export function searchWordsOf(q: string | undefined): string[] {
  if (q === undefined) return [];
  const words = splitSearchWords(q)
    .map(normalizeSearchText)
    .filter((w) => w.length > 0);
  return [...new Set(words)];
}

/**
 * Words come from splitSearchWords (letters, digits and marks only), so none can carry tsquery
 * syntax; quoting them anyway keeps the query well-formed whatever the parser makes of a word.
 */
function quoted(word: string, suffix: string): string {
  return `'${word.replace(/['\\]/g, '')}'${suffix}`;
}

/**
 * The tsquery text of a search: every word must match (in any order), each as a prefix (`stap` finds
 * stapler) or, when no indexed word starts with it, as any of its near words (`stapelr` finds
 * stapler). `weight` 'A' restricts the match to product names (ranking and suggestions).
 */
export function buildTsquery(words: LookedUpWord[], weight: '' | 'A' = ''): string {
  return words
    .map((w) => {
      const alternatives = [quoted(w.word, `:*${weight}`), ...w.near.map((n) => quoted(n, weight ? `:${weight}` : ''))];
      return alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' | ')})`;
    })
    .join(' & ');
}

/** What the results page highlights: the words as typed (prefixes) and the corrections found. */
export function matchedTerms(words: LookedUpWord[]): string[] {
  return [...new Set(words.flatMap((w) => [w.word, ...w.near]))];
}
