import type { Product } from '@bulkcart/contracts/product';
import { applyDiscount, formatMoney, toCents } from '@bulkcart/contracts/money';
import { useBuyerPricing } from '@/lib/auth/pricing.ts';
import { VerifyNudge } from './verify-nudge.tsx';

interface PriceTagProps {
  product: Pick<Product, 'price' | 'discount' | 'tiers'>;
  /** Text size of the price paid at the minimum order. */
  className?: string;
  /** Under the price, for a buyer the breaks do not apply to: what verification would give. */
  nudge?: boolean;
}

/**
 * A product's price where buyers compare: the price at the minimum order, with the list price struck
 * through beside it when a discount applies (a bare "-15%" left the buyer guessing which one it was),
 * and "from $X" when volume breaks go lower for this buyer (verified, docs/decisions/014). The cards,
 * the featured cards and the detail page share it.
 */
export function PriceTag({ product, className = 'text-lg font-bold', nudge = false }: PriceTagProps) {
  const { breaksApply } = useBuyerPricing();
  if (product.price === null) return <span className={className}>Price on request</span>;
  // Breaks only fall, so the last one is the best; money.ts alone keeps the home page's cards light.
  const listCents = toCents(product.price);
  const unitCents = applyDiscount(listCents, product.discount);
  const last = product.tiers.at(-1);
  const lastCents = last ? applyDiscount(toCents(last.price), product.discount) : unitCents;
  const best = breaksApply ? lastCents : unitCents;
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2" data-testid="price-tag">
      {unitCents < listCents ? (
        <s className="text-sm text-base-content/60" data-testid="list-price">
          <span className="sr-only">List price </span>
          {formatMoney(listCents)}
        </s>
      ) : null}
      <span className={className} data-testid="unit-price">
        {formatMoney(unitCents)}
      </span>
      {best < unitCents ? (
        <span className="text-sm font-semibold text-success" data-testid="from-price">
          from {formatMoney(best)}
        </span>
      ) : null}
      {nudge && !breaksApply && last && lastCents < unitCents ? (
        <VerifyNudge quantity={last.minquantity} unitCents={lastCents} withLink={false} className="basis-full text-xs text-base-content/70" />
      ) : null}
    </span>
  );
}
