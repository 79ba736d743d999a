import type { Address } from '@bulkcart/contracts/address';
import type { Order, OrderStatus } from '@bulkcart/contracts/order';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { unitsText } from '@bulkcart/contracts/quantity';
import { actorOf, formatIsoDate, STATUS_LOOK } from '@/features/orders/lib/order-display.ts';

/** The order's status as a coloured badge (the same words on every screen). */
export function StatusBadge({ status }: { status: OrderStatus }) {
  const look = STATUS_LOOK[status];
  return (
    <span className={`badge badge-sm ${look.badge} whitespace-nowrap`} data-testid="order-status">
      {look.label}
    </span>
  );
}

/** Accepted and past its ship-by date: flagged on both sides. */
export function LateFlag({ late }: { late: boolean }) {
  if (!late) return null;
  return (
    <span className="badge badge-sm badge-warning whitespace-nowrap" data-testid="order-late">
      Late
    </span>
  );
}

export function ShipBy({ shipBy }: { shipBy: string | null }) {
  if (!shipBy) return null;
  return (
    <span className="whitespace-nowrap" data-testid="order-ship-by">
      Ship by <time dateTime={shipBy}>{formatIsoDate(shipBy)}</time>
    </span>
  );
}

/** Carrier and tracking number once shipped (either may be missing). */
export function Tracking({ order }: { order: Pick<Order, 'status' | 'carrier' | 'tracking'> }) {
  if (order.status !== 'shipped' && order.status !== 'delivered') return null;
  if (!order.carrier && !order.tracking) return null;
  return (
    <span className="break-all" data-testid="order-tracking">
      {[order.carrier, order.tracking].filter(Boolean).join(' · ')}
    </span>
  );
}

/** A postal address as a block; `null` only for orders placed before ship-to existed. */
export function AddressBlock({ address }: { address: Address | null }) {
  if (!address) return <p className="text-base-content/60">No address recorded</p>;
  return (
    <address className="not-italic break-words" data-testid="address">
      <span className="block font-medium">{address.company}</span>
      <span className="block">{address.line1}</span>
      {address.line2 ? <span className="block">{address.line2}</span> : null}
      <span className="block">
        {address.city}, {address.region} {address.postalCode}
      </span>
      <span className="block">{address.country}</span>
      <span className="block text-base-content/70">{address.phone}</span>
    </address>
  );
}

/** The order's lines and total: product, quantity, unit price paid, line total. */
export function OrderLinesTable({ order }: { order: Pick<Order, 'lines' | 'total'> }) {
  return (
    <table className="table table-sm" data-testid="order-lines">
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col" className="text-right">
            <abbr title="Quantity" className="no-underline sm:hidden">
              Qty
            </abbr>
            <span className="max-sm:hidden">Quantity</span>
          </th>
          <th scope="col" className="text-right max-sm:hidden">
            Unit price
          </th>
          <th scope="col" className="text-right">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line, index) => (
          <tr key={line.productId ?? index}>
            <td className="min-w-28 break-words">
              <span className="font-medium">{line.product.name}</span>
              <span className="block text-xs text-base-content/60">By: {line.product.brandname}</span>
              {line.product.sku ? (
                <span className="block text-xs text-base-content/60" data-testid="line-sku">
                  SKU {line.product.sku}
                </span>
              ) : null}
            </td>
            <td className="text-right whitespace-nowrap">
              {unitsText(line.quantity)}
              {/* On a phone the unit price sits under the quantity instead of in a column of its own. */}
              <span className="block text-xs text-base-content/60 sm:hidden">@ {formatMoney(toCents(line.unitPrice))}</span>
            </td>
            <td className="text-right whitespace-nowrap max-sm:hidden">{formatMoney(toCents(line.unitPrice))}</td>
            <td className="text-right whitespace-nowrap">{formatMoney(toCents(line.lineTotal))}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          {/* Under the unit prices on wide screens; under the quantity on a phone, which has no such column. */}
          <td colSpan={2} className="max-sm:hidden" />
          <th scope="row" colSpan={1} className="text-right text-base-content max-sm:hidden">
            Total
          </th>
          <th scope="row" colSpan={2} className="text-right text-base-content sm:hidden">
            Total
          </th>
          <td className="text-right font-bold whitespace-nowrap text-base-content" data-testid="order-total">
            {formatMoney(toCents(order.total))}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

/** The packing slip's lines: product and quantity, never a price. */
export function PackingSlipLines({ order }: { order: Pick<Order, 'lines'> }) {
  return (
    <table className="table table-sm" data-testid="packing-slip-lines">
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col" className="text-right">
            Quantity
          </th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line, index) => (
          <tr key={line.productId ?? index}>
            <td className="break-words">
              <span className="font-medium">{line.product.name}</span>
              <span className="block text-xs text-base-content/60">By: {line.product.brandname}</span>
            </td>
            <td className="text-right whitespace-nowrap">{unitsText(line.quantity)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every transition: when, who, to which status, and its note (ship-by date, reason, tracking). */
export function OrderTimeline({ order }: { order: Pick<Order, 'timeline'> }) {
  return (
    <ol className="flex flex-col gap-3" data-testid="order-timeline">
      {order.timeline.map((entry, index) => (
        <li key={`${entry.at}-${index}`} className="flex flex-col gap-0.5 border-l-2 border-base-300 pl-3">
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={entry.to} />
            <time dateTime={entry.at} className="text-sm text-base-content/70">
              {new Date(entry.at).toLocaleString()}
            </time>
          </span>
          <span className="text-sm">{actorOf(entry)}</span>
          {entry.note ? <span className="text-sm break-words text-base-content/80">{entry.note}</span> : null}
        </li>
      ))}
    </ol>
  );
}
