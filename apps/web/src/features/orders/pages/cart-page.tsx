import { Link } from '../../../lib/router.tsx';
import { MESSAGES } from '@bulkcart/contracts/messages';
import type { Order } from '@bulkcart/contracts/order';
import { formatDollars } from '@bulkcart/contracts/pricing';
import { paths } from '@bulkcart/contracts/routes';
import { Spinner } from '../../../components/spinner.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { notify } from '../../../components/notice.tsx';
import { useMe } from '../../../lib/auth/me.ts';
import { useOrders } from '../api/get-orders.ts';
import { useCancelOrder } from '../api/cancel-order.ts';
import { OrderImage } from '../components/order-image.tsx';

/** /cart: the signed-in buyer's orders (docs/product/screens.md, Cart), a page at a time. */
export function CartPage() {
  const email = useMe().data?.user?.email ?? '';
  const orders = useOrders(email);

  let content;
  if (orders.isPending) content = <Spinner label="Loading your orders" />;
  else if (!orders.data) content = <LoadError error={orders.error} onRetry={() => void orders.refetch()} />;
  else {
    const items = orders.data.pages.flatMap((page) => page.items);
    // A failed next page or refresh keeps the orders already shown and offers Retry under them.
    const retry = orders.isFetchNextPageError ? () => void orders.fetchNextPage() : () => void orders.refetch();
    content = (
      <>
        {items.length === 0 ? <EmptyCart /> : <OrdersTable orders={items} />}
        {orders.isError ? <LoadError error={orders.error} onRetry={retry} /> : null}
        {orders.hasNextPage && !orders.isError ? (
          <div className="mt-6 flex justify-center">
            <button type="button" className="btn btn-outline btn-primary" onClick={() => void orders.fetchNextPage()} disabled={orders.isFetchingNextPage}>
              {orders.isFetchingNextPage ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
              Load more
            </button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <section aria-labelledby="cart-heading" className="flex flex-col gap-6">
      <h1 id="cart-heading" className="text-2xl font-bold md:text-3xl">
        Cart
      </h1>
      {content}
    </section>
  );
}

function EmptyCart() {
  return (
    <div className="flex flex-col items-center gap-4 rounded-box bg-base-100 px-4 py-16 text-center ring-1 ring-base-300">
      <p className="text-xl font-semibold">{MESSAGES.cartEmpty}</p>
      <Link to={paths.categoriesLink} className="btn btn-primary">
        view products
      </Link>
    </div>
  );
}

/**
 * A table on wide screens; below md each row becomes a small card (the header hides and the cells
 * label themselves), so a phone never scrolls sideways.
 */
function OrdersTable({ orders }: { orders: Order[] }) {
  return (
    <div className="rounded-box bg-base-100 ring-1 ring-base-300">
      <table className="table max-md:block">
        <thead className="max-md:hidden">
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Quantity</th>
            <th scope="col">Order date</th>
            <th scope="col">
              <span className="sr-only">Cancel</span>
            </th>
          </tr>
        </thead>
        <tbody className="max-md:block">
          {orders.map((order) => (
            <OrderRow key={order._id} order={order} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OrderRow({ order }: { order: Order }) {
  const cancel = useCancelOrder({
    onSuccess: () => notify({ kind: 'success', text: MESSAGES.orderCanceled, durationMs: 1000 }),
    onError: (error) => notify({ kind: 'error', title: MESSAGES.errorTitle, text: error.message }),
  });
  const unitCents = Math.round(order.unitPrice * 100);
  const date = new Date(order.createdAt).toLocaleDateString();

  return (
    <tr data-testid="order-row" className="border-b border-base-200 last:border-b-0 max-md:grid max-md:grid-cols-[1fr_auto] max-md:items-center max-md:gap-x-3 max-md:py-2">
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
        <span className="block text-xs text-base-content/60">{formatDollars(unitCents)} each</span>
      </td>
      <td className="whitespace-nowrap max-md:row-start-3 max-md:block max-md:border-b-0 max-md:py-1">
        <span className="text-base-content/60 md:hidden">Ordered </span>
        <time dateTime={order.createdAt}>{date}</time>
      </td>
      <td className="max-md:col-start-2 max-md:row-span-2 max-md:row-start-2 max-md:block max-md:border-b-0 max-md:self-center md:text-right">
        <button
          type="button"
          className="btn btn-outline btn-error btn-sm"
          onClick={() => cancel.mutate(order._id)}
          disabled={cancel.isPending}
          aria-label={`Cancel order of ${order.product.name}`}
        >
          {cancel.isPending ? <span className="loading loading-spinner loading-xs" aria-hidden="true" /> : null}
          Cancel
        </button>
      </td>
    </tr>
  );
}
