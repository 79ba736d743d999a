import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { MESSAGES } from '@bulkcart/contracts/messages';
import type { Order } from '@bulkcart/contracts/order';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { paths } from '@bulkcart/contracts/routes';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { useMe } from '@/lib/auth/me.ts';
import { useOrders, type OrdersShown } from '@/features/orders/api/get-orders.ts';
import { FilterTabs } from '@/components/filter-tabs.tsx';
import { EmptyState } from '@/components/empty-state.tsx';
import { useCart } from '@/features/orders/api/cart.ts';
import { ShoppingCart } from '@/features/orders/components/shopping-cart.tsx';
import { ReorderButton } from '@/features/orders/components/reorder-button.tsx';
import { PagedListEnd } from '@/components/paged-list-end.tsx';
import { OrderImage } from '@/features/orders/components/order-image.tsx';
import { CancelOrderDialog } from '@/features/orders/components/cancel-order-dialog.tsx';
import { LateFlag, ShipBy, StatusBadge, Tracking } from '@/features/orders/components/order-parts.tsx';
import { canCancel } from '@/features/orders/lib/order-display.ts';

/**
 * /cart: the lines waiting to be ordered, grouped by seller (docs/decisions/017-cart-and-checkout.md),
 * above the signed-in buyer's orders (docs/product/screens.md, Cart), a page at a time. The spec's
 * 'Cart is Empty' is what a buyer with neither sees.
 */
export function CartPage() {
  const email = useMe().data?.user?.email ?? '';
  const [params, setParams] = useSearchParams();
  // The filter lives in the URL (?status=cancelled), so a link or a reload keeps it.
  const shown: OrdersShown = params.get('status') === 'cancelled' ? 'cancelled' : 'live';
  const orders = useOrders(email, shown);
  const cart = useCart();
  const [toCancel, setToCancel] = useState<Order | null>(null);
  const cartIsEmpty = cart.data?.count === 0;

  // One spinner until both the cart and the orders are in: whichever came second would otherwise push
  // the other down the page (a layout shift Lighthouse measured at 0.17).
  if (orders.isPending || cart.isPending) {
    return (
      <CartFrame>
        <Spinner label="Loading your cart and orders" />
      </CartFrame>
    );
  }
  const filter = (
    <FilterTabs
      label="Show orders"
      idPrefix="cart-tab"
      tabs={[
        { key: 'live', label: 'Orders', isCurrent: shown === 'live' },
        { key: 'cancelled', label: 'Cancelled', isCurrent: shown === 'cancelled' },
      ]}
      onChoose={(key) => setParams(key === 'cancelled' ? { status: key } : {}, { replace: true })}
    />
  );
  let content;
  if (!orders.data) content = <LoadError error={orders.error} onRetry={() => void orders.refetch()} />;
  else {
    const items = orders.data.pages.flatMap((page) => page.items);
    // Nothing in the cart and no live orders: the spec's empty cart, with the filter above it (a buyer
    // whose only orders were cancelled finds them under Cancelled).
    if (shown === 'live' && items.length === 0 && cartIsEmpty) {
      return (
        <CartFrame>
          {filter}
          <EmptyCart />
        </CartFrame>
      );
    }
    content = (
      <>
        <h2 className="text-xl font-bold">Your orders</h2>
        {filter}
        {items.length === 0 ? (
          <EmptyState title={shown === 'cancelled' ? 'No cancelled orders.' : 'No orders yet.'} isFramed />
        ) : (
          <OrdersTable orders={items} onCancel={setToCancel} />
        )}
        <PagedListEnd query={orders} />
      </>
    );
  }

  return (
    <CartFrame>
      <ShoppingCart cart={cart} />
      {content}
      {toCancel ? <CancelOrderDialog order={toCancel} onClose={() => setToCancel(null)} /> : null}
    </CartFrame>
  );
}

function CartFrame({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="cart-heading" className="flex flex-col gap-6">
      <h1 id="cart-heading" className="text-2xl font-bold md:text-3xl">
        Cart
      </h1>
      {children}
    </section>
  );
}

function EmptyCart() {
  return (
    <EmptyState title={MESSAGES.cartEmpty} isFramed>
      <Link to={paths.categoriesLink} className="btn btn-primary">
        view products
      </Link>
      <Link to={paths.quickOrder} className="link link-primary text-sm">
        Know your SKUs? Quick order
      </Link>
    </EmptyState>
  );
}

/**
 * A table on wide screens; below md each row becomes a small card (the header hides and the cells
 * label themselves), so a phone never scrolls sideways.
 */
function OrdersTable({ orders, onCancel }: { orders: Order[]; onCancel: (order: Order) => void }) {
  return (
    <div className="rounded-box bg-base-100 ring-1 ring-base-300">
      <table className="table max-md:block">
        <thead className="max-md:hidden">
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Quantity</th>
            <th scope="col">Order</th>
            <th scope="col">Order date</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="max-md:block">
          {orders.map((order) => (
            <OrderRow key={order._id} order={order} onCancel={onCancel} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OrderRow({ order, onCancel }: { order: Order; onCancel: (order: Order) => void }) {
  const date = new Date(order.createdAt).toLocaleDateString();

  return (
    <tr
      data-testid="order-row"
      data-order-number={order.number}
      className="border-b border-base-200 last:border-b-0 max-md:grid max-md:grid-cols-[1fr_auto] max-md:items-center max-md:gap-x-3 max-md:py-2"
    >
      <td className="max-md:col-span-2 max-md:block max-md:border-b-0 max-md:pb-1">
        <div className="flex items-start gap-3">
          <OrderImage src={order.product.image} alt={order.product.name} />
          <div className="min-w-0 text-sm">
            <p className="font-semibold break-words">{order.product.name}</p>
            <p className="text-base-content/75 break-words">By: {order.product.brandname}</p>
            <p className="text-base-content/75">{order.product.category}</p>
            <p className="text-base-content/75">Min Buy: {order.product.minquantity}</p>
          </div>
        </div>
      </td>
      <td className="max-md:block max-md:border-b-0 max-md:py-1">
        <span className="font-medium whitespace-nowrap">{order.quantity} unite</span>
        <span className="block text-xs text-base-content/60" data-testid="order-unit-price">
          {formatMoney(toCents(order.unitPrice))} each
          {order.unitPrice < order.listUnitPrice ? <s className="ml-1">{formatMoney(toCents(order.listUnitPrice))}</s> : null}
        </span>
        <span className="block text-sm font-semibold" data-testid="order-total">
          {formatMoney(toCents(order.total))}
        </span>
      </td>
      <td className="max-md:col-span-2 max-md:block max-md:border-b-0 max-md:py-1">
        <div className="flex flex-col gap-1 text-sm">
          <span className="flex flex-wrap items-center gap-2">
            <Link to={paths.order(order._id)} className="link link-primary font-semibold whitespace-nowrap" data-testid="order-number">
              {order.number}
            </Link>
            <StatusBadge status={order.status} />
            <LateFlag late={order.late} />
          </span>
          <ShipBy shipBy={order.shipBy} />
          <Tracking order={order} />
          {order.poNumber ? <span className="text-base-content/70">PO {order.poNumber}</span> : null}
        </div>
      </td>
      <td className="whitespace-nowrap max-md:block max-md:border-b-0 max-md:py-1">
        <span className="text-base-content/60 md:hidden">Ordered </span>
        <time dateTime={order.createdAt}>{date}</time>
      </td>
      <td className="max-md:block max-md:border-b-0 max-md:py-1 md:text-right">
        <span className="flex flex-wrap gap-2 md:justify-end">
          <Link to={paths.order(order._id)} className="btn btn-ghost btn-sm" aria-label={`View order ${order.number}`}>
            View
          </Link>
          <ReorderButton order={order} />
          {canCancel(order) ? (
            <button
              type="button"
              className="btn btn-outline btn-error btn-sm"
              onClick={() => onCancel(order)}
              aria-label={`Cancel order of ${order.product.name}`}
            >
              Cancel
            </button>
          ) : null}
        </span>
      </td>
    </tr>
  );
}
