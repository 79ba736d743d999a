import { useState } from 'react';
import { paths } from '@bulkcart/contracts/routes';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { ORDER_STATUSES, orderStatusSchema, type Sale, type SalesCounts } from '@bulkcart/contracts/order';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { unitsText } from '@bulkcart/contracts/quantity';
import { LoadError } from '@/components/load-error.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { useSales, useSalesCounts } from '@/features/orders/api/get-sales.ts';
import type { DeskFilter } from '@/features/orders/api/order-keys.ts';
import { AddressBlock, LateFlag, ShipBy, StatusBadge, Tracking } from '@/features/orders/components/order-parts.tsx';
import { BulkAcceptDialog } from '@/features/orders/components/bulk-accept-dialog.tsx';
import { FilterTabs } from '@/components/filter-tabs.tsx';
import { EmptyState } from '@/components/empty-state.tsx';
import { PagedListEnd } from '@/components/paged-list-end.tsx';
import { SaleActionDialog } from '@/features/orders/components/sale-action-dialog.tsx';
import { sellerMoves, STATUS_LOOK, type SellerMove } from '@/features/orders/lib/order-display.ts';

const MOVE_LABEL: Record<SellerMove, string> = { accept: 'Accept', decline: 'Decline', ship: 'Ship', deliver: 'Mark delivered' };

/** /sales: the seller's order desk (docs/product/screens.md): newest first, one status at a time, paged. */
export function SalesPage() {
  const [params, setParams] = useSearchParams();
  const filter = deskFilterOf(params);
  const sales = useSales(filter);
  const counts = useSalesCounts();
  const [acting, setActing] = useState<{ order: Sale; move: SellerMove } | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // The orders the dialog accepts, fixed when it opens: the list refreshes under it as they are accepted.
  const [accepting, setAccepting] = useState<Sale[] | null>(null);
  const items = sales.data?.pages.flatMap((page) => page.items) ?? [];
  // Only what is still listed as placed counts as chosen: an order that moved on drops out by itself.
  const placed = items.filter((order) => order.status === 'placed');
  const chosen = placed.filter((order) => selected.has(order._id));

  function toggle(id: string) {
    setSelected((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }

  function choose(next: DeskFilter) {
    setParams(next === 'late' ? { late: 'true' } : next ? { status: next } : {}, { replace: true });
  }

  let content;
  if (sales.isPending) content = <Spinner label="Loading your orders" />;
  else if (!sales.data) content = <LoadError error={sales.error} onRetry={() => void sales.refetch()} />;
  else {
    content = (
      <>
        {placed.length > 0 ? (
          <SelectionBar
            placedCount={placed.length}
            chosenCount={chosen.length}
            onSelectAll={(all) => setSelected(new Set(all ? placed.map((order) => order._id) : []))}
            onAccept={() => setAccepting(chosen)}
          />
        ) : null}
        {items.length === 0 ? (
          <EmptyState title={emptyTitle(filter)} isFramed testId="sales-empty" />
        ) : (
          <ul className="flex flex-col gap-4" aria-label="Orders">
            {items.map((order) => (
              <SaleCard
                key={order._id}
                order={order}
                isSelected={selected.has(order._id)}
                onSelect={() => toggle(order._id)}
                onMove={(move) => setActing({ order, move })}
              />
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
      <StatusTabs filter={filter} counts={counts.data} onChoose={choose} />
      {content}
      {acting ? <SaleActionDialog order={acting.order} move={acting.move} onClose={() => setActing(null)} /> : null}
      {accepting ? (
        <BulkAcceptDialog
          orders={accepting}
          onClose={() => setAccepting(null)}
          onDone={() => {
            setAccepting(null);
            setSelected(new Set());
          }}
        />
      ) : null}
    </section>
  );
}

/** `?late=true` (the dashboard's "late" link) or `?status=`; anything else lists every order. */
function deskFilterOf(params: URLSearchParams): DeskFilter {
  if (params.get('late') === 'true') return 'late';
  const parsed = orderStatusSchema.safeParse(params.get('status'));
  return parsed.success ? parsed.data : null;
}

function emptyTitle(filter: DeskFilter): string {
  if (filter === 'late') return 'No late orders: everything accepted is within its ship-by date.';
  return filter ? `No ${STATUS_LOOK[filter].label.toLowerCase()} orders.` : 'No orders of your products yet.';
}

/**
 * Filter by status, each with its count, and the late ones (accepted, past their ship-by date) after
 * Accepted; on a phone the row scrolls sideways, with a cue at the edges.
 */
function StatusTabs({ filter, counts, onChoose }: { filter: DeskFilter; counts: SalesCounts | undefined; onChoose: (next: DeskFilter) => void }) {
  const total = counts ? ORDER_STATUSES.reduce((sum, s) => sum + counts[s], 0) : undefined;
  const tabs = [{ key: 'all', label: 'All', count: total, isCurrent: filter === null }];
  for (const s of ORDER_STATUSES) {
    tabs.push({ key: s, label: STATUS_LOOK[s].label, count: counts?.[s], isCurrent: s === filter });
    if (s === 'accepted') tabs.push({ key: 'late', label: 'Late', count: counts?.late, isCurrent: filter === 'late' });
  }
  return (
    <FilterTabs
      label="Filter by status"
      idPrefix="sales-tab"
      withCounts
      tabs={tabs}
      onChoose={(key) => onChoose(key === 'all' ? null : (key as Exclude<DeskFilter, null>))}
    />
  );
}

/** Choose placed orders to accept together: all of them at once, or one by one on their cards. */
function SelectionBar({
  placedCount,
  chosenCount,
  onSelectAll,
  onAccept,
}: {
  placedCount: number;
  chosenCount: number;
  onSelectAll: (all: boolean) => void;
  onAccept: () => void;
}) {
  const isAll = chosenCount === placedCount;
  return (
    <div
      className="sticky top-16 z-10 flex flex-wrap items-center justify-between gap-2 rounded-box bg-base-100 px-4 py-2 text-sm shadow-sm ring-1 ring-base-300"
      data-testid="selection-bar"
    >
      <label className="flex cursor-pointer items-center gap-2">
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          checked={isAll}
          ref={(box) => {
            if (box) box.indeterminate = chosenCount > 0 && !isAll;
          }}
          onChange={() => onSelectAll(!isAll)}
        />
        Select all placed ({placedCount})
      </label>
      <button type="button" className="btn btn-primary btn-sm" disabled={chosenCount === 0} onClick={onAccept} aria-haspopup="dialog">
        Accept selected ({chosenCount})
      </button>
    </div>
  );
}

function SaleCard({ order, isSelected, onSelect, onMove }: { order: Sale; isSelected: boolean; onSelect: () => void; onMove: (move: SellerMove) => void }) {
  const moves = sellerMoves(order.status);
  return (
    <li className="flex flex-col gap-3 rounded-box bg-base-100 p-4 ring-1 ring-base-300" data-testid="sale-card" data-order-number={order.number}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="flex flex-wrap items-center gap-2 font-semibold">
          {order.status === 'placed' ? (
            <input type="checkbox" className="checkbox checkbox-sm" checked={isSelected} onChange={onSelect} aria-label={`Select order ${order.number}`} />
          ) : null}
          <Link to={paths.order(order._id)} className="link link-primary" data-testid="order-number">
            {order.number}
          </Link>
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
                {unitsText(line.quantity)} × {line.product.name}
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
