import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '@bulkcart/contracts/categories';
import { firstSearchApiPath } from './search-api-path.ts';
import { readSearchChoices, searchApiPath, toSearchParams, type SearchChoices } from './search-url.ts';

/** What the page asks for first, from a URL: its choices read through the schema. */
const pagePath = (url: string) => searchApiPath(readSearchChoices(new URLSearchParams(url)), null);

describe('the first search request, started before the page has loaded', () => {
  it('is the path the page asks for, for every URL the app writes', () => {
    const choices = fc.record(
      {
        q: fc.string({ minLength: 1, maxLength: 20 }).filter((q) => q.trim() !== ''),
        category: fc.uniqueArray(fc.constantFrom(...CATEGORIES), { maxLength: 3 }),
        brand: fc.uniqueArray(fc.stringMatching(/^[A-Za-z][A-Za-z &-]{0,10}[A-Za-z]$/), { maxLength: 3 }),
        minPrice: fc.integer({ min: 0, max: 500 }),
        maxPrice: fc.integer({ min: 500, max: 5_000 }),
        maxMoq: fc.integer({ min: 1, max: 1_000 }),
        inStock: fc.constant('true' as const),
        sort: fc.constantFrom('relevance', 'price_asc', 'price_desc', 'newest', 'rating'),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(choices, (picked) => {
        const url = toSearchParams(picked as Partial<SearchChoices>).toString();
        expect(firstSearchApiPath(new URLSearchParams(url))).toBe(pagePath(url));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the URL as typed where the schema would change it: that request is then not used', () => {
    expect(pagePath('q=gloves')).toBe('/search?q=gloves&limit=12');
    expect(firstSearchApiPath(new URLSearchParams('q=gloves'))).toBe('/search?q=gloves&limit=12');
    expect(firstSearchApiPath(new URLSearchParams('sort=cheapest&q=gloves'))).not.toBe(pagePath('sort=cheapest&q=gloves'));
  });
});
