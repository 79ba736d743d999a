import { MESSAGES } from '@bulkcart/contracts/messages';
import type { Product } from '@bulkcart/contracts/product';
import { ApiError } from '@/lib/api-client.ts';

export interface PurchaseProblem {
  title: string;
  text: string;
}

/**
 * The spec's checks, run in the browser before sending for a quick answer (docs/product/rules.md): the quantity
 * against the minimum, then the stock against the minimum (not against the chosen quantity). The
 * server repeats them on the live row and also checks the stock against the chosen quantity.
 */
export function checkPurchase(product: Pick<Product, 'minquantity' | 'mainquantity'>, quantity: number): PurchaseProblem | null {
  if (quantity < product.minquantity) return { title: MESSAGES.moqTitle, text: MESSAGES.moqText(product.minquantity) };
  if (product.mainquantity < product.minquantity) return { title: MESSAGES.stockTitle, text: MESSAGES.stockText(product.mainquantity) };
  return null;
}

/** Refusals whose title says what happened: the spec's two, and a price that changed before Buy. */
const TITLED_REFUSALS = new Set(['BELOW_MOQ', 'OUT_OF_STOCK', 'PRICE_CHANGED']);

/** The server's refusals keep their titles; any other failure is the spec's 'Error' with its message. */
export function describePurchaseError(error: Error): PurchaseProblem {
  const isTitled = error instanceof ApiError && TITLED_REFUSALS.has(error.code);
  return { title: isTitled ? error.title : MESSAGES.errorTitle, text: error.message };
}

/** Whether the server refused because its price is no longer the one the buyer was shown. */
export function isPriceChanged(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'PRICE_CHANGED';
}
