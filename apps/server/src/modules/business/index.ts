/** What other modules may use of business verification and operators; everything else is this module's own. */
export { buyerPricing, effectiveStatus, isVerifiedBuyer, pricingOf, verifiedBuyers } from './buyer-status.ts';
export { isOperator, isOperatorAddress } from './operators.ts';
export type { Notify } from './expiry-sweep.ts';
