import type { BuyerPricing } from '@bulkcart/contracts/verification';
import { useMe } from './me.ts';

/** Until /api/me answers, nobody is assumed verified: a price never shows lower than it will be. */
const UNKNOWN: BuyerPricing = { mode: 'tiers', status: 'none', breaksApply: false, canOrder: true };

/**
 * How the signed-in user is priced (docs/decisions/014-business-verification.md). Catalog answers are
 * shared between users, so each browser prices them itself from the product's ladder and this.
 */
export function useBuyerPricing(): BuyerPricing {
  return useMe().data?.verification ?? UNKNOWN;
}
