/** Query keys of the ordering feature: one prefix, so a purchase or cancel refreshes every order list. */
export const orderKeys = {
  all: ['orders'] as const,
  list: (email: string) => ['orders', 'list', email] as const,
};

/**
 * The catalog's key prefix (products feature, product-keys.ts). A purchase or cancel changes a
 * product's stock, so every catalog query under it is refreshed; named here rather than imported,
 * since features do not reach into each other.
 */
export const catalogKeyPrefix = ['products'] as const;
