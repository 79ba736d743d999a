import { z } from 'zod';
import { LIMITS } from './limits.ts';

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
});
export type CreateOrderInput = z.infer<typeof createOrderInputSchema>;

export const idempotencyKeySchema = z.string().min(8).max(128).regex(/^[A-Za-z0-9_-]+$/);

/** An order as GET /api/orders/{email} lists it: the spec's fields plus the snapshot of what was bought. */
export interface Order {
  _id: string;
  productId: string | null;
  quantity: number;
  /** The spec's name for the order date: a date string. */
  data: string;
  createdAt: string;
  /** Dollars per unit paid: the break reached, then the discount. */
  unitPrice: number;
  /** Dollars paid for the line: unitPrice × quantity, computed in cents. */
  total: number;
  /** The product's base price when ordered, before any break or discount. */
  listUnitPrice: number;
  /** The `minquantity` of the volume break that applied; null for the base price. */
  tierMinquantity: number | null;
  product: {
    name: string;
    image: string;
    brandname: string;
    category: string;
    minquantity: number;
  };
}

/**
 * Checkout stepper rule (spec §4): never below 1; anything that is not a number becomes 1. With a case
 * pack, the quantity rounds up to a whole number of cases (never below one case).
 */
export function clampQuantity(value: unknown, casepack = 1): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  const whole = Number.isFinite(n) ? Math.min(Math.max(1, Math.trunc(n)), LIMITS.quantityMax) : 1;
  const cases = Math.ceil(whole / casepack);
  const maxCases = Math.floor(LIMITS.quantityMax / casepack);
  return Math.min(cases, maxCases) * casepack;
}
