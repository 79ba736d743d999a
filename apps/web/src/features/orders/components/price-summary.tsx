import { nextBreak, quotePrice, type PriceLadder } from '@bulkcart/contracts/pricing';
import { formatMoney } from '@bulkcart/contracts/money';
import { bestBreakText } from '@bulkcart/contracts/verification';
import { VerifyNudge } from '@/components/verify-nudge.tsx';

/**
 * What this quantity costs, computed in the browser by the same function the server charges with, so
 * the stepper needs no request per step: unit price, line total, the saving, and the next break.
 */
export function PriceSummary({ ladder, quantity, casepack, breaksApply }: { ladder: PriceLadder; quantity: number; casepack: number; breaksApply: boolean }) {
  const quote = quotePrice(ladder, quantity, { breaksApply });
  // "Near": reaching the break at most doubles the order; further off, a nudge is noise.
  const next = nextBreak(ladder, quantity, casepack, { breaksApply });
  // Unverified (docs/decisions/014): what a verified business would pay for this quantity, else at the best break.
  const verified = breaksApply ? null : quotePrice(ladder, quantity);
  const best = ladder.tiers.at(-1);
  const wholesale = verified && verified.tierMinquantity !== null ? verified : best ? quotePrice(ladder, Math.max(quantity, best.minquantity)) : null;
  const isNear = next !== null && next.more <= quantity;
  const isBelowBest = wholesale !== null && wholesale.tierMinquantity !== null && wholesale.unitCents < quote.unitCents;
  return (
    <div className="mt-2 flex flex-col gap-1 text-sm" aria-live="polite" data-testid="checkout-price">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-base-content/70">Unit price</dt>
        <dd data-testid="checkout-unit-price">
          <span className="font-semibold">{formatMoney(quote.unitCents)}</span>
          {quote.tierMinquantity !== null ? <span className="text-base-content/70"> (volume price from {quote.tierMinquantity})</span> : null}
        </dd>
        <dt className="text-base-content/70">Total</dt>
        <dd className="font-semibold" data-testid="checkout-total">
          {formatMoney(quote.totalCents)}
        </dd>
        {quote.savingCents > 0 ? (
          <>
            <dt className="text-base-content/70">You save</dt>
            <dd className="text-success" data-testid="checkout-saving">
              {formatMoney(quote.savingCents)}
            </dd>
          </>
        ) : null}
      </dl>
      {next && isNear ? (
        <p className="rounded-box bg-info/10 px-3 py-2" data-testid="checkout-nudge">
          Add {next.more.toLocaleString('en-US')} more to pay {formatMoney(next.unitCents)} each
        </p>
      ) : null}
      {isBelowBest && !breaksApply ? (
        <VerifyNudge quantity={wholesale.tierMinquantity!} unitCents={wholesale.unitCents} className="rounded-box bg-info/10 px-3 py-2" />
      ) : null}
      {/* A verified buyer is not asked to verify: told the best break, unless the nudge above names it. */}
      {isBelowBest && breaksApply && !(isNear && next.unitCents === wholesale.unitCents) ? (
        <p className="rounded-box bg-info/10 px-3 py-2" data-testid="checkout-best-break">
          {bestBreakText(formatMoney(wholesale.unitCents), wholesale.tierMinquantity!)}
        </p>
      ) : null}
    </div>
  );
}
