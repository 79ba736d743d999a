import { useDeferredValue, useId, useRef, useState, type Ref } from 'react';
import { CART_LIMITS, splitPastedRows } from '@bulkcart/contracts/cart-rules';
import type { CartAddResult, SkuMatch } from '@bulkcart/contracts/cart';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { notify } from '@/components/notice.tsx';
import { useAddCartLines } from '@/features/orders/api/cart.ts';
import { useSkuMatches } from '@/features/orders/api/find-skus.ts';
import { AddResultsList } from '@/features/orders/components/add-results.tsx';
import { Spinner } from '@/components/spinner.tsx';

interface Row {
  key: number;
  sku: string;
  quantity: string;
  /** The seller chosen when several sell this SKU. */
  productId: string | null;
}

type RowCheck = { kind: 'empty' | 'checking' } | { kind: 'error' | 'warning' | 'ok'; text: string; match?: SkuMatch } | { kind: 'choose'; matches: SkuMatch[] };

/** What a row will do, as far as the browser can tell before adding (the server decides). */
function checkRow(row: Row, matches: SkuMatch[] | undefined, isChecking: boolean): RowCheck {
  const sku = row.sku.trim();
  if (!sku) return { kind: 'empty' };
  if (isChecking || !matches) return { kind: 'checking' };
  const exact = matches.filter((m) => m.sku.toLowerCase() === sku.toLowerCase());
  if (exact.length === 0) return { kind: 'error', text: `Unknown SKU ${sku}` };
  const match = exact.length === 1 ? exact[0] : exact.find((m) => m.productId === row.productId);
  if (!match) return { kind: 'choose', matches: exact };
  const quantity = Number(row.quantity);
  if (!/^\d+$/.test(row.quantity.trim()) || quantity < 1 || quantity > CART_LIMITS.quantityMax)
    return { kind: 'error', text: 'Enter a whole number of units', match };
  if (match.price === null) return { kind: 'error', text: 'No price yet: it cannot be bought', match };
  if (quantity < match.minquantity) return { kind: 'error', text: MESSAGES.moqText(match.minquantity), match };
  if (quantity % match.casepack !== 0) return { kind: 'error', text: `Sold in cases of ${match.casepack}`, match };
  const summary = `${match.name} · ${match.sellerName} · ${formatMoney(toCents(match.price))} each`;
  if (quantity > match.available) return { kind: 'warning', text: `${summary}. Only ${match.available} in stock now`, match };
  return { kind: 'ok', text: summary, match };
}

let nextKey = 1;
const blankRow = (): Row => ({ key: nextKey++, sku: '', quantity: '', productId: null });

/**
 * /quick-order (docs/decisions/017-cart-and-checkout.md): a buyer who knows the SKUs types them with a
 * typeahead or pastes rows from a spreadsheet, sees what each row will do, then adds them all at once.
 */
export function QuickOrderPage() {
  const id = useId();
  const [rows, setRows] = useState<Row[]>(() => [blankRow(), blankRow(), blankRow()]);
  const [paste, setPaste] = useState('');
  const [results, setResults] = useState<{ answer: CartAddResult[]; labels: string[] } | null>(null);
  const add = useAddCartLines();
  const firstNew = useRef<HTMLInputElement>(null);

  function update(key: number, change: Partial<Row>) {
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...change } : r)));
  }

  function takePaste() {
    const pasted = splitPastedRows(paste).slice(0, CART_LIMITS.rows);
    if (pasted.length === 0) return notify({ kind: 'error', title: 'Nothing to read', text: 'Paste rows of a SKU and a quantity, one per line.' });
    const kept = rows.filter((r) => r.sku.trim() || r.quantity.trim());
    setRows([...kept, ...pasted.map((p) => ({ key: nextKey++, sku: p.sku, quantity: p.quantity, productId: null }))].slice(0, CART_LIMITS.rows));
    setPaste('');
  }

  function addAll() {
    const filled = rows.filter((r) => r.sku.trim());
    if (filled.length === 0) return notify({ kind: 'error', title: 'Nothing to add', text: 'Type a SKU and a quantity first.' });
    const lines = filled.map((r) => ({
      ...(r.productId ? { productId: r.productId } : { sku: r.sku.trim() }),
      quantity: /^\d+$/.test(r.quantity.trim()) ? Number(r.quantity) : r.quantity,
    }));
    add.mutate(
      { lines },
      {
        onSuccess: ({ results: answer }) => {
          setResults({ answer, labels: filled.map((r) => r.sku.trim()) });
          // What was added leaves the rows; what was refused stays to be fixed.
          const refused = new Set(answer.filter((a) => a.status === 'error').map((a) => filled[a.row - 1]?.key));
          const left = rows.filter((r) => refused.has(r.key));
          setRows(left.length > 0 ? left : [blankRow()]);
        },
        onError: (error) => notify({ kind: 'error', title: MESSAGES.errorTitle, text: error.message }),
      },
    );
  }

  return (
    <section aria-labelledby="quick-order-heading" className="flex flex-col gap-6">
      <div>
        <h1 id="quick-order-heading" className="text-2xl font-bold md:text-3xl">
          Quick order
        </h1>
        <p className="text-base-content/75">Type SKUs and quantities, or paste them from a spreadsheet; check each row, then add them all to your cart.</p>
      </div>
      <div className="flex flex-col gap-2 rounded-box bg-base-100 p-4 ring-1 ring-base-300">
        <label htmlFor={`${id}-paste`} className="font-medium">
          Paste rows
        </label>
        <textarea
          id={`${id}-paste`}
          className="textarea w-full font-mono"
          rows={5}
          placeholder={'PEN-GEL-12 20\nPAPER-A4-500\t10'}
          value={paste}
          onChange={(e) => setPaste(e.target.value)}
          aria-describedby={`${id}-paste-hint`}
        />
        <p id={`${id}-paste-hint`} className="text-xs text-base-content/60">
          One row per line: a SKU and a quantity, separated by a space, tab, comma or semicolon. Up to {CART_LIMITS.rows} rows.
        </p>
        <button type="button" className="btn btn-outline btn-sm self-start" onClick={takePaste}>
          Check pasted rows
        </button>
      </div>
      <div className="flex flex-col gap-3 rounded-box bg-base-100 p-4 ring-1 ring-base-300">
        <h2 className="font-semibold">Rows</h2>
        <ol className="flex flex-col gap-3" data-testid="quick-rows">
          {rows.map((row, index) => (
            <QuickRow
              key={row.key}
              row={row}
              index={index}
              inputRef={index === rows.length - 1 ? firstNew : undefined}
              onChange={(change) => update(row.key, change)}
              onRemove={() => setRows((current) => (current.length > 1 ? current.filter((r) => r.key !== row.key) : [blankRow()]))}
            />
          ))}
        </ol>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={rows.length >= CART_LIMITS.rows}
            onClick={() => {
              setRows((current) => [...current, blankRow()]);
              requestAnimationFrame(() => firstNew.current?.focus());
            }}
          >
            Add a row
          </button>
          <button type="button" className="btn btn-primary btn-sm ml-auto" onClick={addAll} disabled={add.isPending} data-testid="quick-add">
            {add.isPending ? <Spinner inline size="xs" /> : null}
            Add to cart
          </button>
        </div>
      </div>
      {results ? (
        <div className="flex flex-col gap-2 rounded-box bg-base-100 p-4 ring-1 ring-base-300">
          <AddResultsList results={results.answer} label={(r) => r.sku ?? results.labels[r.row - 1] ?? `Row ${r.row}`} />
          <Link to={paths.cart} className="btn btn-sm self-start">
            Go to cart
          </Link>
        </div>
      ) : null}
    </section>
  );
}

function QuickRow({
  row,
  index,
  inputRef,
  onChange,
  onRemove,
}: {
  row: Row;
  index: number;
  inputRef?: Ref<HTMLInputElement>;
  onChange: (change: Partial<Row>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const typed = useDeferredValue(row.sku);
  const matches = useSkuMatches(typed);
  const check = checkRow(row, matches.data, matches.isFetching && !matches.data);
  const label = `Row ${index + 1}`;
  return (
    <li className="grid grid-cols-[1fr_6rem_auto] items-start gap-2 sm:grid-cols-[14rem_7rem_1fr_auto]" data-testid="quick-row">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-sku`} className="sr-only">
          {label} SKU
        </label>
        <input
          ref={inputRef}
          id={`${id}-sku`}
          className="input input-sm w-full font-mono"
          placeholder="SKU"
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          list={`${id}-skus`}
          value={row.sku}
          onChange={(e) => onChange({ sku: e.target.value, productId: null })}
        />
        <datalist id={`${id}-skus`}>
          {(matches.data ?? []).map((m) => (
            <option key={m.productId} value={m.sku}>
              {`${m.name} · ${m.sellerName}`}
            </option>
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor={`${id}-qty`} className="sr-only">
          {label} quantity
        </label>
        <input
          id={`${id}-qty`}
          className="input input-sm w-full"
          inputMode="numeric"
          placeholder="Qty"
          value={row.quantity}
          onChange={(e) => onChange({ quantity: e.target.value })}
        />
      </div>
      <button type="button" className="btn btn-ghost btn-sm sm:order-last" onClick={onRemove} aria-label={`Remove row ${index + 1}`}>
        ✕
      </button>
      <div className="col-span-3 text-sm sm:col-span-1" data-testid="quick-row-check" data-kind={check.kind} aria-live="polite">
        <RowCheckText check={check} rowLabel={label} onChoose={(productId) => onChange({ productId })} />
      </div>
    </li>
  );
}

function RowCheckText({ check, rowLabel, onChoose }: { check: RowCheck; rowLabel: string; onChoose: (productId: string) => void }) {
  switch (check.kind) {
    case 'empty':
      return null;
    case 'checking':
      return <span className="text-base-content/60">Checking…</span>;
    case 'choose':
      return (
        <label className="flex flex-wrap items-center gap-2">
          <span>Several sellers use this SKU:</span>
          <select className="select select-sm" defaultValue="" onChange={(e) => onChoose(e.target.value)} aria-label={`${rowLabel}: choose the seller`}>
            <option value="" disabled>
              Choose a seller
            </option>
            {check.matches.map((m) => (
              <option key={m.productId} value={m.productId}>
                {m.sellerName}: {m.name}
              </option>
            ))}
          </select>
        </label>
      );
    case 'ok':
      return (
        <span>
          <span className="font-bold text-success" aria-hidden="true">
            ✓
          </span>{' '}
          {check.text}
        </span>
      );
    case 'warning':
      return <span className="rounded bg-warning/20 px-1">{check.text}</span>;
    case 'error':
      return <span className="text-error">✗ {check.text}</span>;
  }
}
