import { useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Link, useParams } from '@/lib/router.tsx';
import type { Order } from '@bulkcart/contracts/order';
import { paths } from '@bulkcart/contracts/routes';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { notify } from '@/components/notice.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { ApiError } from '@/lib/api-client.ts';
import { useMe } from '@/lib/auth/me.ts';
import { useOrder } from '@/features/orders/api/get-order.ts';
import { useMarkReceived } from '@/features/orders/api/mark-received.ts';
import { BuyAgainButton } from '@/features/orders/components/buy-again-button.tsx';
import { ReorderButton } from '@/features/orders/components/reorder-button.tsx';
import { CancelOrderDialog } from '@/features/orders/components/cancel-order-dialog.tsx';
import {
  AddressBlock,
  LateFlag,
  OrderLinesTable,
  OrderTimeline,
  PackingSlipLines,
  ShipBy,
  StatusBadge,
  Tracking,
} from '@/features/orders/components/order-parts.tsx';
import { canBuyAgain, canCancel, canMarkReceived, formatIsoDate } from '@/features/orders/lib/order-display.ts';

/** /orders/{id}: one of the buyer's orders, its timeline, and its invoice (printable on one page). */
export function OrderPage() {
  const { id = '' } = useParams();
  const order = useOrder(id);
  if (order.isPending) return <Spinner label="Loading the order" />;
  if (order.isError) {
    if (order.error instanceof ApiError && (order.error.status === 404 || order.error.status === 400)) return <OrderNotFound />;
    return <LoadError error={order.error} onRetry={() => void order.refetch()} />;
  }
  return <OrderDetails order={order.data.order} side={order.data.side} />;
}

function OrderNotFound() {
  return (
    <div role="alert" className="alert flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between">
      <span>This order does not exist, or it is not yours.</span>
      <Link to={paths.cart} className="btn btn-sm btn-primary">
        Back to Cart
      </Link>
    </div>
  );
}

function OrderDetails({ order, side }: { order: Order; side: 'buyer' | 'seller' }) {
  const myEmail = useMe().data?.user?.email;
  const buyerEmail = side === 'buyer' ? myEmail : null;
  const isBuyer = side === 'buyer';
  const [isCancelling, setIsCancelling] = useState(false);
  const [isConfirmingReceipt, setIsConfirmingReceipt] = useState(false);
  const received = useMarkReceived();
  // What the next print shows: the invoice, or (for the seller) a packing slip without prices.
  const [printed, setPrinted] = useState<'invoice' | 'packing-slip'>('invoice');

  function print(kind: 'invoice' | 'packing-slip') {
    // Rendered before the browser takes its print snapshot.
    flushSync(() => setPrinted(kind));
    window.print();
  }

  function markReceived() {
    received.mutate(order._id, {
      onSuccess: () => notify({ kind: 'success', text: `Order ${order.number} marked received`, durationMs: 1000 }),
      onError: (error) => notify({ kind: 'error', title: 'Error', text: error.message }),
      onSettled: () => setIsConfirmingReceipt(false),
    });
  }

  const placedOn = new Date(order.createdAt).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

  return (
    <article className="mx-auto flex max-w-4xl flex-col gap-6 print:max-w-none print:gap-4" data-testid="order-page">
      <Link to={isBuyer ? paths.cart : `${paths.sales}?status=${order.status}`} className="link text-sm print:hidden">
        {isBuyer ? '← Cart' : '← Order desk'}
      </Link>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <p className="hidden text-xl font-bold print:block">
            Bulk<span className="text-accent">Cart</span> · {printed === 'invoice' ? 'Invoice' : 'Packing slip'}
          </p>
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-bold md:text-3xl">
            Order <span data-testid="order-number">{order.number}</span>
            <StatusBadge status={order.status} />
            <LateFlag late={order.late} />
          </h1>
          <p className="text-sm text-base-content/70">
            Placed on <time dateTime={order.createdAt}>{placedOn}</time>
          </p>
        </div>
        <div className="flex flex-wrap gap-2 print:hidden">
          {isBuyer && canMarkReceived(order) ? (
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setIsConfirmingReceipt(true)}>
              Mark received
            </button>
          ) : null}
          {isBuyer && canBuyAgain(order) ? <BuyAgainButton order={order} /> : null}
          {isBuyer ? <ReorderButton order={order} className="btn btn-outline btn-sm" /> : null}
          {isBuyer && canCancel(order) ? (
            <button type="button" className="btn btn-outline btn-error btn-sm" onClick={() => setIsCancelling(true)}>
              Cancel order
            </button>
          ) : null}
          <button type="button" className="btn btn-outline btn-sm" onClick={() => print('invoice')}>
            Print invoice
          </button>
          {isBuyer ? null : (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => print('packing-slip')}>
              Print packing slip
            </button>
          )}
        </div>
      </header>

      {isBuyer ? <StatusNote order={order} /> : null}

      {isBuyer ? null : <PackingSlip order={order} placedOn={placedOn} isPrinted={printed === 'packing-slip'} />}

      <section
        aria-label="Invoice"
        className={`flex flex-col gap-4 rounded-box bg-base-100 p-4 ring-1 ring-base-300 print:p-0 print:ring-0 ${printed === 'invoice' ? '' : 'print:hidden'}`}
        data-testid="invoice"
      >
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3 print:grid-cols-3">
          <Party heading="Seller">
            <p className="font-medium break-words" data-testid="seller-name">
              {order.sellerName}
            </p>
          </Party>
          <Party heading="Buyer">
            <p className="font-medium break-words" data-testid="buyer-name">
              {order.buyerName}
            </p>
            {buyerEmail ? <p className="break-all text-base-content/70">{buyerEmail}</p> : null}
          </Party>
          <Party heading="Ship to">
            <AddressBlock address={order.shipTo} />
          </Party>
        </div>
        <div className="overflow-x-auto">
          <OrderLinesTable order={order} />
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-base-content/70">Order number</dt>
          <dd>{order.number}</dd>
          {order.poNumber ? (
            <>
              <dt className="text-base-content/70">PO number</dt>
              <dd className="break-all" data-testid="po-number">
                {order.poNumber}
              </dd>
            </>
          ) : null}
          <dt className="text-base-content/70">Order date</dt>
          <dd>{placedOn}</dd>
          {order.shipBy ? (
            <>
              <dt className="text-base-content/70">Ship by</dt>
              <dd>{formatIsoDate(order.shipBy)}</dd>
            </>
          ) : null}
          {order.carrier || order.tracking ? (
            <>
              <dt className="text-base-content/70">Shipment</dt>
              <dd>
                <Tracking order={order} />
              </dd>
            </>
          ) : null}
        </dl>
      </section>

      <section aria-labelledby="timeline-heading" className="flex flex-col gap-3 print:hidden">
        <h2 id="timeline-heading" className="text-lg font-semibold">
          Timeline
        </h2>
        <OrderTimeline order={order} />
      </section>

      {isCancelling ? <CancelOrderDialog order={order} onClose={() => setIsCancelling(false)} /> : null}
      <ConfirmDialog
        open={isConfirmingReceipt}
        title={`Mark order ${order.number} received?`}
        confirmLabel="Mark received"
        cancelLabel="Not yet"
        isPending={received.isPending}
        onConfirm={markReceived}
        onCancel={() => setIsConfirmingReceipt(false)}
      >
        <p>The order becomes delivered and the seller is told. This cannot be undone.</p>
      </ConfirmDialog>
    </article>
  );
}

/**
 * What goes in the box with the goods: where to, from whom, what and how many; no prices. Printed
 * only (the screen shows the invoice, which holds the same and more).
 */
function PackingSlip({ order, placedOn, isPrinted }: { order: Order; placedOn: string; isPrinted: boolean }) {
  return (
    <section aria-label="Packing slip" className={`hidden flex-col gap-4 text-sm ${isPrinted ? 'print:flex' : ''}`} data-testid="packing-slip">
      <div className="grid grid-cols-3 gap-4">
        <Party heading="Ship to">
          <AddressBlock address={order.shipTo} />
        </Party>
        <Party heading="From">
          <p className="font-medium break-words">{order.sellerName}</p>
        </Party>
        <Party heading="Order">
          <p>{order.number}</p>
          <p>{placedOn}</p>
          {order.shipBy ? <p>Ship by {formatIsoDate(order.shipBy)}</p> : null}
        </Party>
      </div>
      <PackingSlipLines order={order} />
    </section>
  );
}

function Party({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 text-sm">
      <h2 className="text-xs font-semibold tracking-wide text-base-content/60 uppercase">{heading}</h2>
      {children}
    </div>
  );
}

/** What the buyer is waiting for, in one sentence, under the heading. */
function StatusNote({ order }: { order: Order }) {
  let text: ReactNode = null;
  if (order.status === 'placed') text = 'Waiting for the seller to accept. Orders not accepted within three business days are cancelled.';
  else if (order.status === 'accepted') text = <ShipBy shipBy={order.shipBy} />;
  else if (order.status === 'shipped') text = 'On its way. Mark it received when it arrives.';
  else if ((order.status === 'declined' || order.status === 'cancelled') && order.reason) text = `Reason: ${order.reason}`;
  if (!text) return null;
  return (
    <p className={`alert text-sm print:hidden ${order.late ? 'alert-warning' : ''}`} data-testid="order-status-note">
      {text}
      {order.late ? ' — the seller is late.' : null}
    </p>
  );
}
