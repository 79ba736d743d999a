/**
 * Query keys of the catalog, in one place so a write can invalidate every list that may show the
 * product it changed (all products, categories, my products, details) with one prefix.
 */
export interface ProductListFilter {
  category?: string;
  available?: boolean;
}

export const productKeys = {
  all: ['products'] as const,
  list: (filter: ProductListFilter) => ['products', 'list', filter] as const,
  mine: (email: string) => ['products', 'mine', email] as const,
  detail: (id: string) => ['products', 'detail', id] as const,
  openOrders: (id: string) => ['products', 'open-orders', id] as const,
  seller: (id: string) => ['products', 'seller', id] as const,
};
