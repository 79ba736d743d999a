import type { Address } from '@bulkcart/contracts/address';
import type { Order, OrderStatus, OrderTimelineEntry } from '@bulkcart/contracts/order';

/** The words and daisyUI badge colour of each status, the same on the cart, the order page and the desk. */
export const STATUS_LOOK: Record<OrderStatus, { label: string; badge: string }> = {
  placed: { label: 'Placed', badge: 'badge-info' },
  accepted: { label: 'Accepted', badge: 'badge-primary' },
  shipped: { label: 'Shipped', badge: 'badge-secondary' },
  delivered: { label: 'Delivered', badge: 'badge-success' },
  declined: { label: 'Declined', badge: 'badge-error' },
  cancelled: { label: 'Cancelled', badge: 'badge-neutral' },
};

/** The buyer may cancel only while the seller has not accepted (docs/product/rules.md#orders). */
export const canCancel = (order: Pick<Order, 'status'>): boolean => order.status === 'placed';
/** The buyer confirms arrival of a shipped order. */
export const canMarkReceived = (order: Pick<Order, 'status'>): boolean => order.status === 'shipped';
/** An order that is over, one way or another, may be bought again. */
export const canBuyAgain = (order: Pick<Order, 'status'>): boolean =>
  order.status === 'delivered' || order.status === 'cancelled' || order.status === 'declined';

/** The seller's next moves from each status: what the desk offers as buttons. */
export type SellerMove = 'accept' | 'decline' | 'ship' | 'deliver';
export function sellerMoves(status: OrderStatus): SellerMove[] {
  switch (status) {
    case 'placed':
      return ['accept', 'decline'];
    case 'accepted':
      return ['ship'];
    case 'shipped':
      return ['deliver'];
    default:
      return [];
  }
}

/** A YYYY-MM-DD date as the reader's locale writes it, read as that calendar day (never shifted by time zones). */
export function formatIsoDate(isoDate: string, locale?: string): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  if (!y || !m || !d) return isoDate;
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(locale, { timeZone: 'UTC', weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
}

/** An address on one line: "Acme Ltd, 1 Dock Rd, Unit 4, Leeds, West Yorkshire LS1 4AB, GB". */
export function addressOneLine(address: Address): string {
  return [address.company, address.line1, address.line2, address.city, `${address.region} ${address.postalCode}`, address.country].filter(Boolean).join(', ');
}

/** Who made a transition, in words. */
export function actorOf(entry: Pick<OrderTimelineEntry, 'actor' | 'actorName'>): string {
  if (entry.actor === 'system') return 'BulkCart';
  const side = entry.actor === 'buyer' ? 'Buyer' : 'Seller';
  return entry.actorName ? `${entry.actorName} (${side.toLowerCase()})` : side;
}
