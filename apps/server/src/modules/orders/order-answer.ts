import { asc, inArray } from 'drizzle-orm';
import { toDollars, type Order, type OrderLine, type OrderStatus, type OrderTimelineEntry } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { orderEvents, orderLines, type OrderEventRow, type OrderLineRow, type OrderRow } from '../../db/schema/orders.ts';

/** The spec's `data`: a locale date string (US style, UTC, so every server answers the same). */
// One formatter for all: toLocaleDateString builds a new one per call (~60 µs, per the benchmark).
const orderDateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' });

/** Accepted and its ship-by day (UTC) is over. */
export function isLate(row: Pick<OrderRow, 'status' | 'shipBy'>, now: Date): boolean {
  return row.status === 'accepted' && row.shipBy !== null && row.shipBy < now.toISOString().slice(0, 10);
}

/** What an answer reads of a line and of a timeline entry: rows read back, or the rows just written. */
export type AnswerLine = Pick<
  OrderLineRow,
  | 'productId'
  | 'productName'
  | 'productImage'
  | 'productBrand'
  | 'productCategory'
  | 'productMinquantity'
  | 'productSku'
  | 'quantity'
  | 'unitPriceCents'
  | 'lineTotalCents'
  | 'listUnitPriceCents'
  | 'tierMinquantity'
>;
export type AnswerEvent = Pick<OrderEventRow, 'createdAt' | 'actor' | 'actorName' | 'fromStatus' | 'toStatus' | 'note'>;

function toLine(row: AnswerLine): OrderLine {
  return {
    productId: row.productId,
    product: {
      name: row.productName,
      image: row.productImage,
      brandname: row.productBrand,
      category: row.productCategory,
      minquantity: row.productMinquantity,
      sku: row.productSku,
    },
    quantity: row.quantity,
    unitPrice: toDollars(row.unitPriceCents),
    lineTotal: toDollars(row.lineTotalCents),
    listUnitPrice: toDollars(row.listUnitPriceCents),
    tierMinquantity: row.tierMinquantity,
  };
}

function toTimelineEntry(row: AnswerEvent): OrderTimelineEntry {
  return {
    at: row.createdAt.toISOString(),
    actor: row.actor,
    actorName: row.actorName,
    from: row.fromStatus as OrderStatus | null,
    to: row.toStatus as OrderStatus,
    note: row.note,
  };
}

/** An order with its lines and timeline as the API answers it. */
export function toOrder(row: OrderRow, lines: AnswerLine[], events: AnswerEvent[], now: Date): Order {
  const answerLines = lines.map(toLine);
  const first = answerLines[0];
  if (!first) throw new Error(`order ${row.id} has no lines`);
  return {
    _id: row.id,
    number: row.number,
    status: row.status,
    // The original app's fields describe the order's one line (every order so far has one).
    productId: first.productId,
    quantity: first.quantity,
    data: orderDateFormat.format(row.createdAt),
    createdAt: row.createdAt.toISOString(),
    unitPrice: first.unitPrice,
    total: toDollars(row.totalCents),
    listUnitPrice: first.listUnitPrice,
    tierMinquantity: first.tierMinquantity,
    product: first.product,
    lines: answerLines,
    shipTo: row.shipTo ?? null,
    shipBy: row.shipBy,
    late: isLate(row, now),
    carrier: row.carrier,
    tracking: row.tracking,
    reason: row.reason,
    buyerName: row.buyerName,
    sellerName: row.sellerName,
    poNumber: row.poNumber,
    timeline: events.map(toTimelineEntry),
  };
}

function groupBy<T extends { orderId: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.orderId);
    if (list) list.push(row);
    else map.set(row.orderId, [row]);
  }
  return map;
}

/** Answers for a page of orders: two more reads (lines, timeline) for the whole page, by order id. */
export async function loadOrders(db: Db, rows: OrderRow[], now: Date): Promise<Order[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, events] = await Promise.all([
    db.select().from(orderLines).where(inArray(orderLines.orderId, ids)).orderBy(asc(orderLines.orderId), asc(orderLines.position)),
    db.select().from(orderEvents).where(inArray(orderEvents.orderId, ids)).orderBy(asc(orderEvents.orderId), asc(orderEvents.seq)),
  ]);
  const linesByOrder = groupBy(lines);
  const eventsByOrder = groupBy(events);
  return rows.map((row) => toOrder(row, linesByOrder.get(row.id) ?? [], eventsByOrder.get(row.id) ?? [], now));
}

export async function loadOrder(db: Db, row: OrderRow, now: Date): Promise<Order> {
  const [order] = await loadOrders(db, [row], now);
  if (!order) throw new Error('order answer missing');
  return order;
}
