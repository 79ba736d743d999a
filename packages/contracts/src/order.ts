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

/** An order as the API answers it: the original app's fields plus the snapshot of what was bought. */
export const orderSchema = z.object({
  _id: z.string(),
  productId: z.string().nullable().describe('null once the product was deleted'),
  quantity: z.int(),
  data: z.string().describe("The original app's name for the order date: a date string"),
  createdAt: z.string().describe('ISO 8601 timestamp'),
  unitPrice: z.number().describe('Dollars paid per unit, discount applied'),
  product: z.object({
    name: z.string(),
    image: z.string(),
    brandname: z.string(),
    category: z.string(),
    minquantity: z.int(),
  }),
});
export type Order = z.infer<typeof orderSchema>;

export const orderListSchema = z.array(orderSchema);

/** DELETE /api/order/{id}. */
export const cancelledOrderSchema = z.object({ _id: z.string(), cancelled: z.boolean() });
export type CancelledOrder = z.infer<typeof cancelledOrderSchema>;

/** Checkout stepper rule (docs/product/screens.md): never below 1; anything that is not a number becomes 1. */
export function clampQuantity(value: unknown): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  if (!Number.isFinite(n)) return 1;
  return Math.min(Math.max(1, Math.trunc(n)), LIMITS.quantityMax);
}
