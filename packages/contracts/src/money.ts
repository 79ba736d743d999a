import type { Product } from './product.ts';

/**
 * Money in integer cents, and the one place dollars (the API's numbers) meet cents. Small on purpose:
 * the home page's cards import it, and its JavaScript budget is full (decision 005).
 */

/** `cents × (100 − percent) / 100`, rounded half up, in integers (no float rounding to second-guess). */
export function applyDiscount(cents: number, percent: number): number {
  return Math.floor((cents * (100 - percent) + 50) / 100);
}

/**
 * Dollars with at most two decimals (checked by the schemas) to cents. `0.35 * 100` is
 * 35.00000000000001 in floating point; rounding lands on the cent the dollars were written with.
 */
export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** Cents to the API's dollars: exact for the two-decimal values it is used on (1234.5, 0.35, 12). */
export function toDollars(cents: number): number {
  return cents / 100;
}

/** Whether a number is written with at most two decimals: the shortest decimal form JavaScript prints. */
export function hasAtMostTwoDecimals(value: number): boolean {
  return /^-?\d+(\.\d{1,2})?$/.test(String(value));
}

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Every amount the app shows: `$1,234.50`, `$0.35`, `$12.00`. */
export function formatMoney(cents: number): string {
  return money.format(cents / 100);
}

/** A listing nobody can buy today: too little stock for one minimum order. */
export function isBelowMoq(product: Pick<Product, 'mainquantity' | 'minquantity'>): boolean {
  return product.mainquantity < product.minquantity;
}
