import { describe, expect, it } from 'vitest';
import { LIMITS } from '@bulkcart/contracts/limits';
import { readSearchChoices, toSearchParams } from './search-url.ts';

/** The schema fills the page size in; the page's own links never carry it. */
const limit = LIMITS.pageDefault;

describe('the results page reading its URL', () => {
  it('keeps every choice of a URL the app wrote', () => {
    const url = 'q=nitrile+gloves&category=Health+%26+Beauty&brand=Acme&brand=Bolt&minPrice=2.5&maxPrice=40&maxMoq=100&inStock=true&sort=price_asc';
    expect(readSearchChoices(new URLSearchParams(url))).toEqual({
      q: 'nitrile gloves',
      category: ['Health & Beauty'],
      brand: ['Acme', 'Bolt'],
      minPrice: 2.5,
      maxPrice: 40,
      maxMoq: 100,
      inStock: 'true',
      sort: 'price_asc',
      limit,
    });
    expect(toSearchParams(readSearchChoices(new URLSearchParams(url))).toString()).toBe(url);
  });

  it('drops only the values the schema refuses, keeping the rest of a hand-edited URL', () => {
    const url = 'q=gloves&category=Toys&brand=Acme&minPrice=1.234&maxPrice=20&maxMoq=0&inStock=yes&sort=cheapest';
    expect(readSearchChoices(new URLSearchParams(url))).toEqual({ q: 'gloves', category: [], brand: ['Acme'], maxPrice: 20, limit });
  });

  it('drops a price range the wrong way round at its maximum, as the server names it', () => {
    expect(readSearchChoices(new URLSearchParams('minPrice=9&maxPrice=3'))).toEqual({ category: [], brand: [], minPrice: 9, limit });
  });

  it('reads blank and missing values as no choice', () => {
    expect(readSearchChoices(new URLSearchParams('q=&sort=&minPrice='))).toEqual({ category: [], brand: [], limit });
  });
});
