/**
 * Wholesale pricing, in integer cents only: the one function the browser shows and the server charges
 * with (docs/decisions/011-wholesale-pricing.md). No zod here, so the checkout dialog stays light.
 */
import { applyDiscount, toCents } from './money.ts';
import type { Product } from './product.ts';

/** One volume break as stored and computed with: at `minquantity` units or more, `priceCents` each. */
export interface PriceBreakCents {
  minquantity: number;
  priceCents: number;
}

/** What a price depends on. `tiers` are ordered by `minquantity`, each cheaper than the one before. */
export interface PriceLadder {
  priceCents: number;
  /** Whole percent off, applied after the break. */
  discount: number;
  tiers: readonly PriceBreakCents[];
}

export interface PriceOptions {
  /** Whether volume breaks apply to this buyer (a later rule may give them to verified buyers only). */
  breaksApply?: boolean;
}

export interface PriceQuote {
  quantity: number;
  /** What one unit costs this buyer: the break reached, then the discount, rounded half up. */
  unitCents: number;
  totalCents: number;
  /** The base price before any break or discount. */
  listUnitCents: number;
  /** `listUnitCents × quantity − totalCents`: never negative. */
  savingCents: number;
  /** The `minquantity` of the break applied; null for the base price. */
  tierMinquantity: number | null;
}

/** The break a quantity reaches: the last one whose threshold it meets. */
export function breakFor(ladder: PriceLadder, quantity: number, options: PriceOptions = {}): PriceBreakCents | null {
  if (options.breaksApply === false) return null;
  let reached: PriceBreakCents | null = null;
  for (const tier of ladder.tiers) {
    if (quantity >= tier.minquantity) reached = tier;
  }
  return reached;
}

export function quotePrice(ladder: PriceLadder, quantity: number, options: PriceOptions = {}): PriceQuote {
  const tier = breakFor(ladder, quantity, options);
  const unitCents = applyDiscount(tier ? tier.priceCents : ladder.priceCents, ladder.discount);
  const totalCents = unitCents * quantity;
  return {
    quantity,
    unitCents,
    totalCents,
    listUnitCents: ladder.priceCents,
    savingCents: ladder.priceCents * quantity - totalCents,
    tierMinquantity: tier ? tier.minquantity : null,
  };
}

/** The lowest unit price anyone can pay: the last break (or the base), discount applied. */
export function bestUnitCents(ladder: PriceLadder, options: PriceOptions = {}): number {
  const last = options.breaksApply === false ? undefined : ladder.tiers[ladder.tiers.length - 1];
  return applyDiscount(last ? last.priceCents : ladder.priceCents, ladder.discount);
}

export interface NextBreak {
  /** The quantity to reach: the break's threshold, rounded up to a whole case. */
  quantity: number;
  more: number;
  unitCents: number;
}

/** The next cheaper break above `quantity`, for "Add 40 more to pay $8.10 each"; null at the top. */
export function nextBreak(ladder: PriceLadder, quantity: number, casepack = 1, options: PriceOptions = {}): NextBreak | null {
  if (options.breaksApply === false) return null;
  const tier = ladder.tiers.find((t) => t.minquantity > quantity);
  if (!tier) return null;
  const target = Math.ceil(tier.minquantity / casepack) * casepack;
  return { quantity: target, more: target - quantity, unitCents: applyDiscount(tier.priceCents, ladder.discount) };
}

/** The ladder of a product as the API answers it; null when it has no price (it cannot be bought). */
export function ladderOf(product: Pick<Product, 'price' | 'discount' | 'tiers'>): PriceLadder | null {
  if (product.price === null) return null;
  return {
    priceCents: toCents(product.price),
    discount: product.discount,
    tiers: (product.tiers ?? []).map((t) => ({ minquantity: t.minquantity, priceCents: toCents(t.price) })),
  };
}
