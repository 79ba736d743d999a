import type { CartAddResult } from '@bulkcart/contracts/cart';

/**
 * What became of each row of an add (quick order, reorder, a list sent to the cart): added, or the
 * reason it was not. `label` names the row as the buyer knows it (the product, the pasted SKU).
 */
export function AddResultsList({ results, label }: { results: CartAddResult[]; label: (result: CartAddResult) => string }) {
  const added = results.filter((r) => r.status === 'added').length;
  return (
    <div className="flex flex-col gap-2" data-testid="add-results">
      <p className="text-sm font-medium" role="status">
        {added === results.length ? `All ${added} added to the cart.` : `${added} of ${results.length} added to the cart.`}
      </p>
      <ul className="flex flex-col gap-1 text-sm">
        {results.map((result) => (
          <li key={result.row} className="flex gap-2" data-testid="add-result" data-status={result.status}>
            <span aria-hidden="true" className={result.status === 'added' ? 'text-success' : 'text-error'}>
              {result.status === 'added' ? '✓' : '✗'}
            </span>
            <span className="min-w-0 break-words">
              <span className="font-medium">{label(result)}</span>
              {result.status === 'added' ? `: ${result.quantity} added` : `: ${result.message}`}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
