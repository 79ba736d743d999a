export * from './auth.ts';
export * from './catalog.ts';
export * from './orders.ts';
export * from './rate-limits.ts';
export * from './search.ts';
export * from './business.ts';
export * from './cart.ts';
export * from './catalog-imports.ts';
