/**
 * What a buyer's verification changes, without zod: the home page's price tags and banner read it
 * (docs/decisions/014-business-verification.md).
 */
export const VERIFICATION_STATUSES = ['none', 'pending', 'verified', 'rejected', 'expired'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const VERIFICATION_MODES = ['tiers', 'required', 'off'] as const;
export type VerificationMode = (typeof VERIFICATION_MODES)[number];

/** What /api/me says about how the signed-in user is priced. */
export interface BuyerPricing {
  mode: VerificationMode;
  status: VerificationStatus;
  breaksApply: boolean;
  canOrder: boolean;
}

/** Whether volume breaks apply: to verified buyers, or to everyone when the rule is off. */
export function breaksApplyFor(mode: VerificationMode, status: VerificationStatus): boolean {
  return mode === 'off' || status === 'verified';
}

/** Whether a buyer may order: everyone, except the unverified under `required`. */
export function canOrderFor(mode: VerificationMode, status: VerificationStatus): boolean {
  return mode !== 'required' || status === 'verified';
}

export const VERIFY_TEXT = {
  requiredTitle: 'Verification required',
  required: 'Only verified businesses can place orders. Verify your business on /business.',
  nudgeLink: 'Verify your business',
  banner: 'Verified businesses get wholesale volume prices.',
} as const;

/** To a buyer the breaks already apply to, the best one still ahead: "Order 500+ to pay $8.10". */
export function bestBreakText(price: string, quantity: number): string {
  return `Order ${quantity.toLocaleString('en-US')}+ to pay ${price}`;
}

/** "Verified businesses pay $8.10 at 500+." */
export function nudgeText(price: string, quantity: number): string {
  return `Verified businesses pay ${price} at ${quantity.toLocaleString('en-US')}+.`;
}
