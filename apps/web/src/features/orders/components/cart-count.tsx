import { useQuery } from '@tanstack/react-query';
import { QueryProvider } from '@/lib/query-provider.tsx';
import { cartQueryOptions } from '@/features/orders/api/cart.ts';

/**
 * The navbar's cart count: how many lines wait in the cart (the same cached cart the page shows, so
 * a change anywhere updates it). Nothing while the cart is empty or unknown.
 */
export function CartCount() {
  return (
    <QueryProvider>
      <Count />
    </QueryProvider>
  );
}

function Count() {
  const count = useQuery({ ...cartQueryOptions(), select: (cart) => cart.count }).data ?? 0;
  if (count === 0) return null;
  return (
    <span className="badge badge-primary badge-sm" data-testid="cart-count">
      {count > 99 ? '99+' : count}
      <span className="sr-only">{count === 1 ? ' line' : ' lines'} in the cart</span>
    </span>
  );
}
