/** What other modules may use of business verification and operators; everything else is this module's own. */
export { buyerPricing, isVerifiedBuyer, pricingOf, profileStatusColumns, statusOfProfile, verifiedBuyers, type ProfileStatusRow } from './buyer-status.ts';
export { isOperator, isOperatorAddress } from './operators.ts';
