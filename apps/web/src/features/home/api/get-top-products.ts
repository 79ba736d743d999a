import type { Product } from '@bulkcart/contracts/product';
import { apiGet } from '@/lib/api-client.ts';
import { createFetchStore, useFetchStore, type FetchResult } from '@/lib/fetch-store.ts';

/** GET /api/topproduct: the featured products, open to everyone. */
export function getTopProducts(): Promise<Product[]> {
  return apiGet<Product[]>('/topproduct');
}

// Not a TanStack query, so the home page loads without it (decision 005). Linked to the catalog's
// 'products' key prefix: a purchase or an edit that refreshes the catalog refreshes these too.
const topProductsStore = createFetchStore(getTopProducts, { staleMs: 30_000, linkedKey: ['products', 'top'] });

export function useTopProducts(): FetchResult<Product[]> {
  return useFetchStore(topProductsStore);
}

/** Asks for the featured products now, before the grid is on screen. */
export function prefetchTopProducts(): void {
  void topProductsStore.load();
}
