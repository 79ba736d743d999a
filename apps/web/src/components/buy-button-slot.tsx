import { createContext, use, type ReactNode } from 'react';
import type { Product } from '@bulkcart/contracts/product';

export interface BuyButtonProps {
  product: Product;
  /** Quantity to start the checkout stepper at (the detail page's chosen quantity); default minquantity. */
  quantity?: number;
  label?: string;
  className?: string;
}

function missingBuyButton(): never {
  throw new Error('BuyButton rendered outside BuyButtonContext (app/root-layout.tsx provides it)');
}

/**
 * The home and products features show a buy button, which belongs to the orders feature (it opens
 * the checkout). Features do not import each other (eslint.config.js), so the app frame hands the
 * orders feature's button down through this context and the cards render it from here.
 */
export const BuyButtonContext = createContext<(props: BuyButtonProps) => ReactNode>(missingBuyButton);

export function BuyButton(props: BuyButtonProps) {
  const renderBuyButton = use(BuyButtonContext);
  return renderBuyButton(props);
}
