import type { PriceLadder } from '@bulkcart/contracts/pricing';
import { breakFor } from '@bulkcart/contracts/pricing';
import { applyDiscount, formatMoney } from '@bulkcart/contracts/money';
import { VerifyNudge } from '@/components/verify-nudge.tsx';

interface VolumePricingProps {
  ladder: PriceLadder;
  minquantity: number;
  /** The quantity the buyer chose: its row is highlighted. */
  quantity: number;
  /** Whether the breaks apply to this buyer (verified, docs/decisions/014-business-verification.md). */
  breaksApply: boolean;
}

interface Row {
  from: number;
  to: number | null;
  /** What this buyer pays per unit in this range. */
  unitCents: number;
  /** What a verified business pays here. */
  wholesaleCents: number;
  tierMinquantity: number | null;
}

function rowsOf(ladder: PriceLadder, minquantity: number, breaksApply: boolean): Row[] {
  const baseCents = applyDiscount(ladder.priceCents, ladder.discount);
  const starts = [{ from: minquantity, priceCents: ladder.priceCents, tierMinquantity: null as number | null }].concat(
    ladder.tiers.map((t) => ({ from: t.minquantity, priceCents: t.priceCents, tierMinquantity: t.minquantity })),
  );
  return starts.map((start, i) => {
    const next = starts[i + 1];
    const wholesaleCents = applyDiscount(start.priceCents, ladder.discount);
    return {
      from: start.from,
      to: next ? next.from - 1 : null,
      unitCents: breaksApply ? wholesaleCents : baseCents,
      wholesaleCents,
      tierMinquantity: start.tierMinquantity,
    };
  });
}

const range = (row: Row) =>
  row.to === null ? `${row.from.toLocaleString('en-US')}+` : `${row.from.toLocaleString('en-US')}–${row.to.toLocaleString('en-US')}`;

/**
 * Detail page: quantity range → the unit price this buyer pays → saving against the list price, the
 * chosen row marked. A buyer the breaks do not apply to sees the verified price beside their own, and
 * the nudge to verify.
 */
export function VolumePricing({ ladder, minquantity, quantity, breaksApply }: VolumePricingProps) {
  const chosen = breaksApply ? (breakFor(ladder, quantity)?.minquantity ?? null) : null;
  const rows = rowsOf(ladder, minquantity, breaksApply);
  const best = rows.at(-1);
  return (
    <section aria-labelledby="volume-pricing" className="rounded-box bg-base-100 p-4 ring-1 ring-base-300">
      <h2 id="volume-pricing" className="mb-2 text-lg font-bold">
        Volume pricing
      </h2>
      <table className="table table-sm" data-testid="volume-pricing">
        <thead>
          <tr>
            <th scope="col">Quantity</th>
            <th scope="col">{breaksApply ? 'Unit price' : 'Your price'}</th>
            <th scope="col">{breaksApply ? 'You save' : 'Verified businesses'}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const isChosen = breaksApply ? row.tierMinquantity === chosen : row.tierMinquantity === null;
            const saving = ladder.priceCents - row.unitCents;
            return (
              <tr key={row.from} className={isChosen ? 'bg-primary/10 font-semibold' : undefined} aria-current={isChosen ? 'true' : undefined}>
                <td>{range(row)}</td>
                <td>{formatMoney(row.unitCents)}</td>
                {breaksApply ? (
                  <td>{saving > 0 ? `${formatMoney(saving)} (${Math.round((saving * 100) / ladder.priceCents)}%)` : '—'}</td>
                ) : (
                  <td className="text-success">{formatMoney(row.wholesaleCents)}</td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {!breaksApply && best && best.tierMinquantity !== null ? (
        <VerifyNudge quantity={best.from} unitCents={best.wholesaleCents} className="mt-2 text-sm" />
      ) : null}
    </section>
  );
}
