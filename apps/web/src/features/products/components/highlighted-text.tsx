import { normalizeSearchText } from '@bulkcart/contracts/search-text';

/**
 * `text` with each word that a search term begins (prefix, case and accents ignored, as the server
 * matches) marked with <mark>. The terms are the server's, typo corrections included.
 */
export function HighlightedText({ text, terms }: { text: string; terms: string[] }) {
  if (terms.length === 0) return text;
  const parts = text.split(/([\p{L}\p{N}\p{M}]+)/u);
  return parts.map((part, index) => {
    const word = normalizeSearchText(part);
    const isMatch = index % 2 === 1 && terms.some((term) => word.startsWith(term));
    return isMatch ? (
      <mark key={index} className="rounded bg-warning/40 px-0.5 text-inherit">
        {part}
      </mark>
    ) : (
      part
    );
  });
}
