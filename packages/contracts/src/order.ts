import { z } from 'zod';
import { cursorSchema } from './cursor.ts';
import { LIMITS } from './limits.ts';
import { addressSchema } from './address.ts';
import { formatMoney, hasAtMostTwoDecimals } from './money.ts';

/**
 * POST /api/order. The spec's buyerName, buyerEmail and data are accepted for compatibility and
 * ignored: the server takes the buyer from the session and the date from its own clock.
 */
export const createOrderInputSchema = z.object({
  productId: z.uuid('Unknown product'),
  quantity: z
    .number({ error: 'Quantity must be a whole number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(LIMITS.quantityMax, 'Quantity is too large'),
  /** Where to ship; without it the buyer's saved address is used (and with neither: a 422 per missing field). */
  shipTo: addressSchema.optional(),
  /**
   * The unit price (dollars) the buyer was shown. When the server's price for this buyer and quantity
   * differs, nothing is placed: 409 PRICE_CHANGED with the price now. The checkout dialog always sends it.
   */
  expectedUnitPrice: z
    .number({ error: 'Expected unit price must be a number' })
    .min(0, 'Expected unit price must be at least 0')
    .max(LIMITS.priceMax, 'Expected unit price is too large')
    .refine(hasAtMostTwoDecimals, 'Expected unit price can have at most two decimals (cents)')
    .optional()
    .describe("The unit price in dollars the buyer saw; if the server's differs, 409 PRICE_CHANGED (error.unitPrice is the price now) and nothing is placed"),
});
export type CreateOrderInput = z.infer<typeof createOrderInputSchema>;

export const idempotencyKeySchema = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

/** The states of an order (docs/product/rules.md#orders). */
export const ORDER_STATUSES = ['placed', 'accepted', 'shipped', 'delivered', 'declined', 'cancelled'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;
/** Statuses in which an order still waits on its seller (open orders of a product). */
export const OPEN_ORDER_STATUSES: readonly OrderStatus[] = ['placed', 'accepted', 'shipped'];

/** What was bought, as it was when ordered: the cart still renders after the product is edited or deleted. */
export const orderProductSnapshotSchema = z.object({
  name: z.string(),
  image: z.string(),
  brandname: z.string(),
  category: z.string(),
  minquantity: z.int(),
  sku: z.string().nullable().describe("The seller's SKU when ordered; null when it had none"),
});

/** One line of an order: a product snapshot, the quantity and the prices paid. */
export const orderLineSchema = z.object({
  productId: z.string().nullable().describe('null once the product was deleted'),
  product: orderProductSnapshotSchema,
  quantity: z.int(),
  unitPrice: z.number().describe('Dollars paid per unit: the volume break reached, then the discount'),
  lineTotal: z.number().describe('Dollars: unitPrice × quantity, computed in cents'),
  listUnitPrice: z.number().describe("The product's base price when ordered, before any break or discount"),
  tierMinquantity: z.int().nullable().describe('The minquantity of the volume break that applied; null for the base price'),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const orderActorSchema = z.enum(['buyer', 'seller', 'system']);
export type OrderActor = z.infer<typeof orderActorSchema>;

/** One transition of an order: who, when, from which status to which, and why. */
export const orderTimelineEntrySchema = z.object({
  at: z.string().describe('ISO 8601 timestamp'),
  actor: orderActorSchema,
  actorName: z.string().nullable().describe("The person's name; null for the system"),
  from: orderStatusSchema.nullable().describe('null for the order being placed'),
  to: orderStatusSchema,
  note: z.string().nullable().describe('The decline or cancel reason, the ship-by date, the tracking'),
});
export type OrderTimelineEntry = z.infer<typeof orderTimelineEntrySchema>;

/**
 * An order as the API answers it (the buyer's list, GET /api/order/{id}, the seller's desk): the
 * original app's fields, which describe the order's one line (Buy Now orders have exactly one), plus
 * the order itself: number, status, total, ship-to, ship-by, lines and timeline.
 */
export const orderSchema = z.object({
  _id: z.string(),
  number: z.string().describe('The human order number, e.g. BC-10427; unique'),
  status: orderStatusSchema,
  productId: z.string().nullable().describe('null once the product was deleted'),
  quantity: z.int(),
  data: z.string().describe("The original app's name for the order date: a date string"),
  createdAt: z.string().describe('ISO 8601 timestamp'),
  unitPrice: z.number().describe('Dollars paid per unit: the volume break reached, then the discount'),
  total: z.number().describe('Dollars paid for the whole order (the sum of its line totals), computed in cents'),
  listUnitPrice: z.number().describe("The product's base price when ordered, before any break or discount"),
  tierMinquantity: z.int().nullable().describe('The minquantity of the volume break that applied; null for the base price'),
  product: orderProductSnapshotSchema,
  lines: z.array(orderLineSchema).min(1),
  shipTo: addressSchema.nullable().describe('null only for orders placed before ship-to existed'),
  shipBy: z.string().nullable().describe('YYYY-MM-DD the seller committed to when accepting; null before'),
  late: z.boolean().describe('Accepted and not shipped by the end of its ship-by date (UTC)'),
  carrier: z.string().nullable(),
  tracking: z.string().nullable(),
  reason: z.string().nullable().describe('Why it was declined or cancelled'),
  buyerName: z.string().describe("The buyer's business name"),
  sellerName: z.string().describe("The seller's business name"),
  poNumber: z.string().nullable().describe("The buyer's purchase order number, given at checkout; null when none"),
  timeline: z.array(orderTimelineEntrySchema),
});
export type Order = z.infer<typeof orderSchema>;

export const orderListSchema = z.array(orderSchema);

/**
 * An order as its seller's desk sees it (GET /api/sales, /api/sales/{id} and the seller's moves): the
 * order plus whether its buyer is a verified business now (docs/decisions/014-business-verification.md).
 * The buyer's own answers stay plain orders.
 */
export const saleSchema = orderSchema.extend({
  buyerVerified: z.boolean().describe('The buyer holds a verified business profile with an unexpired permit, as of this answer'),
});
export type Sale = z.infer<typeof saleSchema>;

export const saleListSchema = z.array(saleSchema);

/** DELETE /api/order/{id}. */
export const cancelledOrderSchema = z.object({ _id: z.string(), cancelled: z.boolean() });
export type CancelledOrder = z.infer<typeof cancelledOrderSchema>;

/** GET/PUT /api/account/ship-to: the buyer's saved default address. */
export const shipToAnswerSchema = z.object({ shipTo: addressSchema.nullable() });
export type ShipToAnswer = z.infer<typeof shipToAnswerSchema>;

const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date as YYYY-MM-DD that names a real day. */
export const isoDateSchema = z.string({ error: 'Enter a date as YYYY-MM-DD' }).refine((v) => {
  if (!isoDatePattern.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}, 'Enter a real date as YYYY-MM-DD');

/** POST /api/sales/{id}/accept. Without shipBy: two business days ahead. */
export const acceptOrderInputSchema = z.object({
  shipBy: isoDateSchema.optional().describe('YYYY-MM-DD, today at the earliest, at most three business days ahead'),
});
export type AcceptOrderInput = z.infer<typeof acceptOrderInputSchema>;

/** POST /api/sales/accept: several placed orders accepted in one step, all with one ship-by date. */
export const acceptOrdersInputSchema = acceptOrderInputSchema.extend({
  ids: z
    .array(z.uuid('An order id is a UUID'), { error: 'Choose the orders to accept' })
    .min(1, 'Choose the orders to accept')
    .max(LIMITS.bulkAcceptMax, `At most ${LIMITS.bulkAcceptMax} orders at once`)
    .describe('The orders to accept (duplicates count once)'),
});
export type AcceptOrdersInput = z.infer<typeof acceptOrdersInputSchema>;

/**
 * Its answer: each order accepted now, and each one that could not be (someone acted first, or it is
 * not an order of yours), with why. Orders are independent: one refused never holds back the others.
 */
export const acceptOrdersAnswerSchema = z.object({
  accepted: z.array(saleSchema),
  refused: z.array(
    z.object({
      _id: z.string(),
      number: z.string().nullable().describe('null when the id names no order of yours'),
      title: z.string(),
      message: z.string(),
    }),
  ),
});
export type AcceptOrdersAnswer = z.infer<typeof acceptOrdersAnswerSchema>;

export const ORDER_TEXT_MAX = { reason: 500, carrier: 80, tracking: 80 } as const;

/** POST /api/sales/{id}/decline. */
export const declineOrderInputSchema = z.object({
  reason: z
    .string({ error: 'Say why you decline this order' })
    .trim()
    .min(1, 'Say why you decline this order')
    .max(ORDER_TEXT_MAX.reason, `The reason must be at most ${ORDER_TEXT_MAX.reason} characters`),
});
export type DeclineOrderInput = z.infer<typeof declineOrderInputSchema>;

function optionalText(label: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v === '' ? undefined : v));
}

/** POST /api/sales/{id}/ship: carrier and tracking number, both optional. */
export const shipOrderInputSchema = z.object({
  carrier: optionalText('Carrier', ORDER_TEXT_MAX.carrier),
  tracking: optionalText('Tracking number', ORDER_TEXT_MAX.tracking),
});
export type ShipOrderInput = z.infer<typeof shipOrderInputSchema>;

/** GET /api/sales: the seller's order desk, newest first, optionally one status. */
export const salesListQuerySchema = z.object({
  status: orderStatusSchema.optional(),
  late: z.literal('true').optional().describe('Only late orders: accepted, and past the ship-by date (the dashboard\'s "late" count)'),
  limit: z.coerce.number().int().min(1).max(LIMITS.pageMax).default(LIMITS.pageDefault),
  cursor: z.optional(cursorSchema),
});
export type SalesListQuery = z.infer<typeof salesListQuerySchema>;

/**
 * GET /api/orders/{email}: the buyer's orders, newest first. Without a status, every order but the
 * cancelled ones (the spec's list); with one, only that status (the cart's Cancelled filter).
 */
export const orderListQuerySchema = salesListQuerySchema.omit({ late: true }).extend({
  status: orderStatusSchema.optional().describe('Only orders in this status; without it, every order but the cancelled ones'),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

/** GET /api/sales/counts: the seller's orders per status (the desk's filter tabs). */
export const salesCountsSchema = z.object({
  placed: z.int(),
  accepted: z.int(),
  shipped: z.int(),
  delivered: z.int(),
  declined: z.int(),
  cancelled: z.int(),
  /** Of the accepted ones, those past their ship-by date. */
  late: z.int(),
});
export type SalesCounts = z.infer<typeof salesCountsSchema>;

/** GET /api/product/{id}/open-orders: placed, accepted or shipped orders of the product (owner only). */
export const openOrdersCountSchema = z.object({ count: z.int() });
export type OpenOrdersCount = z.infer<typeof openOrdersCountSchema>;

/** Texts the order workflow names; the server answers them and the browser may show them. */
export const ORDER_MESSAGES = {
  ownProduct: 'You cannot buy your own product.',
  priceChangedTitle: 'The price changed',
  priceChanged: (nowCents: number, sawCents: number) =>
    `The price changed: it is now ${formatMoney(nowCents)} a unit (you saw ${formatMoney(sawCents)}). Nothing was ordered; check the new price and buy again.`,
  alreadyAccepted: 'The seller has already accepted this order',
  notAcceptedInTime: 'Not accepted in time',
} as const;

/** Business days: Monday to Friday, counted on UTC calendar dates. */
const DAY_MS = 86_400_000;

function isWeekday(date: Date): boolean {
  const day = date.getUTCDay();
  return day !== 0 && day !== 6;
}

/** Midnight UTC of the date `date` falls on. */
function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** The instant `days` business days after `from` (weekends skipped, time of day kept). */
export function addBusinessDays(from: Date, days: number): Date {
  let t = from.getTime();
  let left = days;
  while (left > 0) {
    t += DAY_MS;
    if (isWeekday(new Date(t))) left -= 1;
  }
  return new Date(t);
}

export function toIsoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The dates a seller may promise when accepting on `now`: today at the earliest, two business days
 * ahead by default, three at the latest (the FAQ's "processed within 2–3 business days").
 */
export function shipByWindow(now: Date): { min: string; default: string; max: string } {
  const today = startOfUtcDay(now);
  return { min: toIsoDate(today), default: toIsoDate(addBusinessDays(today, 2)), max: toIsoDate(addBusinessDays(today, 3)) };
}
