import type { Product } from '@bulkcart/contracts/product';
import { applyDiscount, formatMoney, toCents } from '@bulkcart/contracts/money';

/** The price a card shows at the minimum order: the discount taken off, in currency format. */
export function shownUnitPrice(product: Pick<Product, 'price' | 'discount'>): string {
  if (product.price === null) return 'Price on request';
  return formatMoney(applyDiscount(toCents(product.price), product.discount));
}

export function money(dollars: number): string {
  return formatMoney(toCents(dollars));
}
