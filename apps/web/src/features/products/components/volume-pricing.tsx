import type { PriceLadder } from '@bulkcart/contracts/pricing';
import { breakFor } from '@bulkcart/contracts/pricing';
import { applyDiscount, formatMoney } from '@bulkcart/contracts/money';

interface VolumePricingProps {
  ladder: PriceLadder;
  minquantity: number;
  /** The quantity the buyer chose: its row is highlighted. */
  quantity: number;
}

interface Row {
  from: number;
  to: number | null;
  unitCents: number;
  tierMinquantity: number | null;
}

function rowsOf(ladder: PriceLadder, minquantity: number): Row[] {
  const starts = [{ from: minquantity, priceCents: ladder.priceCents, tierMinquantity: null as number | null }].concat(
    ladder.tiers.map((t) => ({ from: t.minquantity, priceCents: t.priceCents, tierMinquantity: t.minquantity })),
  );
  return starts.map((start, i) => {
    const next = starts[i + 1];
    return { from: start.from, to: next ? next.from - 1 : null, unitCents: applyDiscount(start.priceCents, ladder.discount), tierMinquantity: start.tierMinquantity };
  });
}

/** Detail page: quantity range → unit price → saving against the list price, the chosen row marked. */
export function VolumePricing({ ladder, minquantity, quantity }: VolumePricingProps) {
  const chosen = breakFor(ladder, quantity)?.minquantity ?? null;
  return (
    <section aria-labelledby="volume-pricing" className="rounded-box bg-base-100 p-4 ring-1 ring-base-300">
      <h2 id="volume-pricing" className="mb-2 text-lg font-bold">
        Volume pricing
      </h2>
      <table className="table table-sm" data-testid="volume-pricing">
        <thead>
          <tr>
            <th scope="col">Quantity</th>
            <th scope="col">Unit price</th>
            <th scope="col">You save</th>
          </tr>
        </thead>
        <tbody>
          {rowsOf(ladder, minquantity).map((row) => {
            const isChosen = row.tierMinquantity === chosen;
            const saving = ladder.priceCents - row.unitCents;
            return (
              <tr key={row.from} className={isChosen ? 'bg-primary/10 font-semibold' : undefined} aria-current={isChosen ? 'true' : undefined}>
                <td>{row.to === null ? `${row.from.toLocaleString('en-US')}+` : `${row.from.toLocaleString('en-US')}–${row.to.toLocaleString('en-US')}`}</td>
                <td>{formatMoney(row.unitCents)}</td>
                <td>{saving > 0 ? `${formatMoney(saving)} (${Math.round((saving * 100) / ladder.priceCents)}%)` : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
