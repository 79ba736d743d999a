import { MESSAGES, ORDER_MESSAGES, toDollars } from '@bulkcart/contracts';
import { AppError, forbidden } from '../../lib/app-error.ts';

/**
 * The refusals of a purchase, in the product's words (docs/product/rules.md): Buy Now, the cart and
 * the checkout answer the same rule with the same status and text.
 */

export const belowMoq = (minquantity: number) => new AppError('BELOW_MOQ', MESSAGES.moqText(minquantity), { title: MESSAGES.moqTitle });

export const outOfStock = (mainquantity: number) => new AppError('OUT_OF_STOCK', MESSAGES.stockText(mainquantity), { title: MESSAGES.stockTitle });

export function wholeCasesText(casepack: number): string {
  return `This product is sold in cases of ${casepack}: order a multiple of ${casepack} units.`;
}

export const notWholeCases = (casepack: number) => {
  const message = wholeCasesText(casepack);
  return new AppError('VALIDATION', message, { title: 'Whole cases only', fieldErrors: { quantity: [message] } });
};

export const UNPRICED_TEXT = 'This product has no price yet, so it cannot be bought.';
export const unpriced = () => new AppError('CONFLICT', UNPRICED_TEXT, { title: MESSAGES.errorTitle });

export const ownProduct = () => forbidden(ORDER_MESSAGES.ownProduct);

/** The largest quantity of whole cases that stock covers. */
export function largestBuyable(mainquantity: number, casepack: number): number {
  return Math.floor(mainquantity / casepack) * casepack;
}

/** Buy Now sent the unit price the buyer saw and the server's differs: nothing is placed (docs/product/rules.md). */
export const priceChanged = (nowCents: number, sawCents: number) =>
  new AppError('PRICE_CHANGED', ORDER_MESSAGES.priceChanged(nowCents, sawCents), { title: ORDER_MESSAGES.priceChangedTitle, unitPrice: toDollars(nowCents) });
