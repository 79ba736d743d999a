import { useState } from 'react';
import type { Order } from '@bulkcart/contracts/order';
import type { Product } from '@bulkcart/contracts/product';
import { notify } from '@/components/notice.tsx';
import { ApiError } from '@/lib/api-client.ts';
import { getProductForCheckout } from '@/features/orders/api/get-product-for-checkout.ts';
import { CheckoutDialog } from './checkout-dialog.tsx';
import { Spinner } from '@/components/spinner.tsx';

/** Opens the checkout with the order's product (as it is today) and the same quantity. */
export function BuyAgainButton({ order, className = 'btn btn-primary btn-sm' }: { order: Order; className?: string }) {
  const line = order.lines[0];
  const [isLoading, setIsLoading] = useState(false);
  const [product, setProduct] = useState<Product | null>(null);

  if (!line?.productId) {
    return (
      <button type="button" className={className} disabled>
        No longer sold
      </button>
    );
  }
  const productId = line.productId;

  async function open() {
    setIsLoading(true);
    try {
      setProduct(await getProductForCheckout(productId));
    } catch (error) {
      const gone = error instanceof ApiError && error.status === 404;
      notify({
        kind: 'error',
        title: 'Error',
        text: gone ? 'This product is no longer sold.' : error instanceof Error ? error.message : 'Something went wrong.',
      });
    } finally {
      setIsLoading(false);
    }
  }

  return (
    <>
      <button type="button" className={className} onClick={() => void open()} disabled={isLoading} aria-haspopup="dialog">
        {isLoading ? <Spinner inline size="xs" /> : null}
        Buy again
      </button>
      {product ? <CheckoutDialog product={product} initialQuantity={line.quantity} onClose={() => setProduct(null)} /> : null}
    </>
  );
}
