import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { hasAtMostTwoDecimals } from './money.ts';

/**
 * A seller's own settings (docs/decisions/017-cart-and-checkout.md): today the minimum order value,
 * which every order from the seller must reach (Buy Now and the checkout alike).
 */
export const sellerSettingsSchema = z.object({
  minimumOrder: z
    .number({ error: 'Minimum order must be an amount in dollars, or empty for none' })
    .min(0.01, 'Minimum order must be at least $0.01')
    .max(LIMITS.priceMax, `Minimum order must be at most $${LIMITS.priceMax.toLocaleString('en-US')}`)
    .refine(hasAtMostTwoDecimals, 'Minimum order can have at most two decimals (cents)')
    .nullable()
    .describe('Dollars every order from you must reach; null for none'),
});
export type SellerSettings = z.infer<typeof sellerSettingsSchema>;

/** GET /api/product/{id}/seller: who sells a product and their minimum order, for its page. */
export const productSellerSchema = z.object({
  sellerName: z.string(),
  minimumOrder: z.number().nullable().describe("The seller's minimum order value in dollars; null when none"),
});
export type ProductSeller = z.infer<typeof productSellerSchema>;
