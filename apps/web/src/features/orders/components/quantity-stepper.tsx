import { useId, useState } from 'react';
import { validCartQuantity } from '@bulkcart/contracts/cart-rules';
import type { CartLine } from '@bulkcart/contracts/cart';

/**
 * − / number / +, in whole cases and never below the MOQ. A typed number is saved on Enter or when
 * the field is left, rounded to what the product sells.
 */
export function QuantityStepper({
  line,
  disabled,
  onCommit,
}: {
  line: Pick<CartLine, 'productId' | 'name' | 'quantity' | 'minquantity' | 'casepack'>;
  disabled: boolean;
  onCommit: (quantity: number) => void;
}) {
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? String(line.quantity);
  const step = line.casepack;
  function commit(value: number) {
    setText(null);
    const next = validCartQuantity(value, line.minquantity, step);
    if (next !== line.quantity) onCommit(next);
  }
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-base-content/70">
        Quantity
      </label>
      <div className="join">
        <button
          type="button"
          className="btn btn-sm join-item"
          aria-label={`Fewer ${line.name}`}
          disabled={disabled || line.quantity <= line.minquantity}
          onClick={() => commit(line.quantity - step)}
        >
          −
        </button>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={line.minquantity}
          step={step}
          className="input input-sm join-item w-24 text-center"
          value={shown}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => (text === null ? undefined : commit(Number(text)))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit(Number(shown));
            }
          }}
        />
        <button
          type="button"
          className="btn btn-sm join-item"
          aria-label={`More ${line.name}`}
          disabled={disabled}
          onClick={() => commit(line.quantity + step)}
        >
          +
        </button>
      </div>
    </div>
  );
}
