import { createContext, use, type ReactNode } from 'react';
import type { Product } from '@bulkcart/contracts/product';

export interface CartActionProps {
  product: Product;
  /** Units to add (the detail page's chosen quantity); default the product's minquantity. */
  quantity?: number;
  /** `cart`: Add to cart; `list`: Add to list (the detail page). */
  action: 'cart' | 'list';
  className?: string;
}

/**
 * Add to cart and Add to list belong to the orders feature (the cart lives there), while the product
 * pages and cards show them. As with the buy button (buy-button-slot.tsx), the app frame hands the
 * orders feature's buttons down through this context; without a provider nothing is rendered.
 */
export const CartActionContext = createContext<(props: CartActionProps) => ReactNode>(() => null);

export function CartAction(props: CartActionProps) {
  const render = use(CartActionContext);
  return render(props);
}
