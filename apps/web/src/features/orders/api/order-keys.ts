import type { OrderStatus } from '@bulkcart/contracts/order';

/** Query keys of the ordering feature: one prefix, so a purchase or cancel refreshes every order list. */
export const orderKeys = {
  all: ['orders'] as const,
  list: (email: string, shown: 'live' | 'cancelled') => ['orders', 'list', email, shown] as const,
  detail: (id: string) => ['orders', 'detail', id] as const,
  shipTo: ['orders', 'ship-to'] as const,
};

/** What the seller's desk lists: one status, the late ones (accepted, past their ship-by date), or all. */
export type DeskFilter = OrderStatus | 'late' | null;

/** The seller's desk; a transition refreshes its lists and counts together. */
export const salesKeys = {
  all: ['sales'] as const,
  list: (filter: DeskFilter) => ['sales', 'list', filter ?? 'all'] as const,
  counts: ['sales', 'counts'] as const,
};

/**
 * The catalog's key prefix (products feature, product-keys.ts). A purchase or cancel changes a
 * product's stock, so every catalog query under it is refreshed; named here rather than imported,
 * since features do not reach into each other.
 */
export const catalogKeyPrefix = ['products'] as const;

/** The bell's key prefix (notifications feature): every transition tells the other side. */
export const notificationKeyPrefix = ['notifications'] as const;

/** The buyer's cart and saved lists (docs/decisions/017-cart-and-checkout.md). */
export const cartKeys = {
  cart: ['cart'] as const,
  lists: ['cart', 'lists'] as const,
  list: (id: string) => ['cart', 'lists', id] as const,
};
