import { LIMITS } from '@bulkcart/contracts/limits';
import type { ProductListFilter } from './product-keys.ts';

/**
 * The API path of one page of GET /api/allproduct. Kept free of imports beyond the contracts because
 * the frame (app/first-requests.ts) builds the same path to start the request early: one function
 * means the early answer and the page's own request can never drift apart.
 */
export function productsPath(filter: ProductListFilter, cursor: string | null): string {
  const query = new URLSearchParams();
  if (filter.category) query.set('category', filter.category);
  if (filter.available) query.set('available', 'true');
  if (cursor) query.set('cursor', cursor);
  else query.set('limit', String(LIMITS.firstPage));
  return `/allproduct?${query.toString()}`;
}
