import { useState } from 'react';
import { useSearchParams } from '../../../lib/router.tsx';
import { ORDER_STATUSES, orderStatusSchema, type OrderStatus, type Sale, type SalesCounts } from '@bulkcart/contracts/order';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { LoadError } from '../../../components/load-error.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useSales, useSalesCounts } from '../api/get-sales.ts';
import { AddressBlock, LateFlag, ShipBy, StatusBadge, Tracking } from '../components/order-parts.tsx';
import { PagedListEnd } from '../components/paged-list-end.tsx';
import { SaleActionDialog } from '../components/sale-action-dialog.tsx';
import { sellerMoves, STATUS_LOOK, type SellerMove } from '../lib/order-display.ts';

const MOVE_LABEL: Record<SellerMove, string> = { accept: 'Accept', decline: 'Decline', ship: 'Ship', deliver: 'Mark delivered' };

/** /sales: the seller's order desk (docs/product/screens.md): newest first, one status at a time, paged. */
export function SalesPage() {
  const [params, setParams] = useSearchParams();
  const parsed = orderStatusSchema.safeParse(params.get('status'));
  const status = parsed.success ? parsed.data : null;
  const sales = useSales(status);
  const counts = useSalesCounts();
  const [acting, setActing] = useState<{ order: Sale; move: SellerMove } | null>(null);

  function choose(next: OrderStatus | null) {
    setParams(next ? { status: next } : {}, { replace: true });
  }

  let content;
  if (sales.isPending) content = <Spinner label="Loading your orders" />;
  else if (!sales.data) content = <LoadError error={sales.error} onRetry={() => void sales.refetch()} />;
  else {
    const items = sales.data.pages.flatMap((page) => page.items);
    content = (
      <>
        {items.length === 0 ? (
          <p className="rounded-box bg-base-100 px-4 py-16 text-center text-lg ring-1 ring-base-300" data-testid="sales-empty">
            {status ? `No ${STATUS_LOOK[status].label.toLowerCase()} orders.` : 'No orders of your products yet.'}
          </p>
        ) : (
          <ul className="flex flex-col gap-4" aria-label="Orders">
            {items.map((order) => (
              <SaleCard key={order._id} order={order} onMove={(move) => setActing({ order, move })} />
            ))}
          </ul>
        )}
        <PagedListEnd query={sales} />
      </>
    );
  }

  return (
    <section aria-labelledby="sales-heading" className="flex flex-col gap-4">
      <h1 id="sales-heading" className="text-2xl font-bold md:text-3xl">
        Order desk
      </h1>
      <StatusTabs status={status} counts={counts.data} onChoose={choose} />
      {content}
      {acting ? <SaleActionDialog order={acting.order} move={acting.move} onClose={() => setActing(null)} /> : null}
    </section>
  );
}

/** Filter by status, each with its count; a row of buttons that scrolls sideways on a phone. */
function StatusTabs({ status, counts, onChoose }: { status: OrderStatus | null; counts: SalesCounts | undefined; onChoose: (s: OrderStatus | null) => void }) {
  const total = counts ? ORDER_STATUSES.reduce((sum, s) => sum + counts[s], 0) : undefined;
  const tabs: Array<{ value: OrderStatus | null; label: string; count: number | undefined }> = [
    { value: null, label: 'All', count: total },
    ...ORDER_STATUSES.map((s) => ({ value: s, label: STATUS_LOOK[s].label, count: counts?.[s] })),
  ];
  return (
    <nav aria-label="Filter by status" className="-mx-4 overflow-x-auto px-4">
      <ul className="flex gap-2 pb-1">
        {tabs.map((tab) => {
          const isCurrent = tab.value === status;
          return (
            <li key={tab.label}>
              <button
                type="button"
                className={`btn btn-sm whitespace-nowrap ${isCurrent ? 'btn-primary' : 'btn-ghost bg-base-100 ring-1 ring-base-300'}`}
                aria-pressed={isCurrent}
                onClick={() => onChoose(tab.value)}
                data-testid={`sales-tab-${tab.value ?? 'all'}`}
              >
                {tab.label}
                <span className={`badge badge-sm ${isCurrent ? '' : 'badge-ghost'}`}>{tab.count ?? '…'}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function SaleCard({ order, onMove }: { order: Sale; onMove: (move: SellerMove) => void }) {
  const moves = sellerMoves(order.status);
  return (
    <li className="flex flex-col gap-3 rounded-box bg-base-100 p-4 ring-1 ring-base-300" data-testid="sale-card" data-order-number={order.number}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="flex flex-wrap items-center gap-2 font-semibold">
          <span data-testid="order-number">{order.number}</span>
          <StatusBadge status={order.status} />
          <LateFlag late={order.late} />
        </h2>
        <time dateTime={order.createdAt} className="text-sm text-base-content/70">
          {new Date(order.createdAt).toLocaleString()}
        </time>
      </div>
      <div className="grid grid-cols-1 gap-3 text-sm md:grid-cols-3">
        <div>
          <h3 className="text-xs font-semibold tracking-wide text-base-content/60 uppercase">Buyer</h3>
          <p className="flex flex-wrap items-center gap-2 font-medium break-words">
            <span data-testid="buyer-name">{order.buyerName}</span>
            {order.buyerVerified ? (
              <span className="badge badge-sm badge-success whitespace-nowrap" data-testid="buyer-verified" title="A verified business">
                Verified
              </span>
            ) : null}
          </p>
          {order.poNumber ? <p data-testid="po-number">PO {order.poNumber}</p> : null}
        </div>
        <div>
          <h3 className="text-xs font-semibold tracking-wide text-base-content/60 uppercase">Ship to</h3>
          <AddressBlock address={order.shipTo} />
        </div>
        <div>
          <h3 className="text-xs font-semibold tracking-wide text-base-content/60 uppercase">Lines</h3>
          <ul>
            {order.lines.map((line, i) => (
              <li key={line.productId ?? i} className="break-words">
                {line.quantity} unite × {line.product.name}
                {line.product.sku ? <span className="text-base-content/60"> (SKU {line.product.sku})</span> : null}{' '}
                <span className="text-base-content/60">@ {formatMoney(toCents(line.unitPrice))}</span>
              </li>
            ))}
          </ul>
          <p className="mt-1 font-semibold" data-testid="order-total">
            Total {formatMoney(toCents(order.total))}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="flex flex-wrap gap-x-3 gap-y-1">
          <ShipBy shipBy={order.shipBy} />
          <Tracking order={order} />
          {order.reason ? <span className="break-words text-base-content/70">Reason: {order.reason}</span> : null}
        </span>
        {moves.length > 0 ? (
          <span className="flex flex-wrap gap-2">
            {moves.map((move) => (
              <button
                key={move}
                type="button"
                className={`btn btn-sm ${move === 'decline' ? 'btn-outline btn-error' : 'btn-primary'}`}
                onClick={() => onMove(move)}
                aria-haspopup="dialog"
                aria-label={`${MOVE_LABEL[move]} order ${order.number}`}
              >
                {MOVE_LABEL[move]}
              </button>
            ))}
          </span>
        ) : null}
      </div>
    </li>
  );
}
