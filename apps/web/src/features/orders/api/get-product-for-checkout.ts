import type { Product } from '@bulkcart/contracts/product';
import { apiGet } from '@/lib/api-client.ts';

/**
 * GET /api/product/{id}: the product as it is now, for "Buy again" (the checkout needs today's price,
 * stock and case pack, not the order's snapshot). The products feature has its own reader; features
 * do not share internals, and this one call is all ordering needs.
 */
export function getProductForCheckout(id: string): Promise<Product> {
  return apiGet<Product>(`/product/${encodeURIComponent(id)}`);
}
