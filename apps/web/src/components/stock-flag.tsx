import type { Product } from '@bulkcart/contracts/product';
import { isBelowMoq } from '@bulkcart/contracts/money';

/** "Out of stock" on a listing whose stock cannot fill one minimum order, before anyone presses Buy. */
export function StockFlag({ product }: { product: Pick<Product, 'mainquantity' | 'minquantity'> }) {
  if (!isBelowMoq(product)) return null;
  return (
    <p className="grow-0 text-sm font-semibold text-error" data-testid="out-of-stock">
      Out of stock
    </p>
  );
}
