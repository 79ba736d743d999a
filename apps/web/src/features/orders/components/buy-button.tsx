import type { Product } from '@bulkcart/contracts/product';

export interface BuyButtonProps {
  product: Product;
  /** Quantity to start the checkout stepper at (the detail page's chosen quantity); default minquantity. */
  quantity?: number;
  label?: string;
  className?: string;
}

/**
 * The buy button of a product card or the detail page: opens the checkout dialog (issue 5).
 * Placeholder until the ordering feature lands; the props are the stable interface.
 */
export function BuyButton({ label = 'Buy Now', className = 'btn btn-secondary btn-sm' }: BuyButtonProps) {
  return (
    <button type="button" className={className} disabled>
      {label}
    </button>
  );
}
