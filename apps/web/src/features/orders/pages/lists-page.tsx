import { useId, useState, type FormEvent } from 'react';
import { CART_LIMITS } from '@bulkcart/contracts/cart-rules';
import type { CartAddResult, SavedList } from '@bulkcart/contracts/cart';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { notify } from '@/components/notice.tsx';
import { useCreateList, useDeleteList, useListToCart, useLists, useSetListLine } from '@/features/orders/api/lists.ts';
import { AddResultsList } from '@/features/orders/components/add-results.tsx';
import { OrderImage } from '@/features/orders/components/order-image.tsx';
import { QuantityStepper } from '@/features/orders/components/quantity-stepper.tsx';

const money = (dollars: number) => formatMoney(toCents(dollars));
const showError = (error: Error) => notify({ kind: 'error', title: MESSAGES.errorTitle, text: error.message });

/**
 * /lists (docs/decisions/017-cart-and-checkout.md): the buyer's named lists ("Monthly restock"), each
 * sent to the cart in one press. Products join a list from their page (Add to list).
 */
export function ListsPage() {
  const lists = useLists();
  let content;
  if (lists.isPending) content = <Spinner label="Loading your lists" />;
  else if (!lists.data) content = <LoadError error={lists.error} onRetry={() => void lists.refetch()} />;
  else if (lists.data.length === 0) {
    content = <p className="rounded-box bg-base-100 p-4 text-sm ring-1 ring-base-300">No lists yet. Name one below, then use Add to list on a product page.</p>;
  } else content = lists.data.map((list) => <ListCard key={list.id} list={list} />);
  return (
    <section aria-labelledby="lists-heading" className="flex flex-col gap-6">
      <div>
        <h1 id="lists-heading" className="text-2xl font-bold md:text-3xl">
          Order lists
        </h1>
        <p className="text-base-content/75">What your shop orders again and again, ready to go into the cart.</p>
      </div>
      {content}
      {lists.data && lists.data.length < CART_LIMITS.lists ? <NewListForm /> : null}
    </section>
  );
}

function NewListForm() {
  const id = useId();
  const [name, setName] = useState('');
  const create = useCreateList();
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name }, { onSuccess: () => setName(''), onError: showError });
  }
  return (
    <form className="flex flex-wrap items-end gap-2 rounded-box bg-base-100 p-4 ring-1 ring-base-300" onSubmit={submit} noValidate>
      <div className="flex min-w-48 flex-1 flex-col gap-1">
        <label htmlFor={`${id}-name`} className="text-sm font-medium">
          New list
        </label>
        <input
          id={`${id}-name`}
          className="input input-sm w-full"
          maxLength={CART_LIMITS.listNameMax}
          placeholder="Monthly restock"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-sm" disabled={create.isPending || !name.trim()}>
        Create list
      </button>
    </form>
  );
}

function ListCard({ list }: { list: SavedList }) {
  const toCart = useListToCart();
  const remove = useDeleteList();
  const [results, setResults] = useState<CartAddResult[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const total = list.lines.reduce((sum, line) => sum + toCents(line.lineTotal), 0);
  return (
    <article className="rounded-box bg-base-100 ring-1 ring-base-300" aria-labelledby={`list-${list.id}`} data-testid="saved-list">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-base-200 px-4 py-3">
        <h2 id={`list-${list.id}`} className="text-lg font-semibold break-words">
          {list.name}
        </h2>
        <p className="text-sm text-base-content/70">
          {list.lines.length === 1 ? '1 line' : `${list.lines.length} lines`} · {formatMoney(total)} at today’s prices
        </p>
      </header>
      {list.lines.length === 0 ? (
        <p className="px-4 py-3 text-sm text-base-content/70">Empty: use Add to list on a product page.</p>
      ) : (
        <ul className="divide-y divide-base-200">
          {list.lines.map((line) => (
            <ListLine key={line.productId} listId={list.id} line={line} />
          ))}
        </ul>
      )}
      <footer className="flex flex-wrap items-center gap-2 px-4 py-3">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={list.lines.length === 0 || toCart.isPending}
          onClick={() => toCart.mutate(list.id, { onSuccess: (answer) => setResults(answer.results), onError: showError })}
        >
          Add all to cart
        </button>
        <button type="button" className="btn btn-ghost btn-sm ml-auto" onClick={() => setConfirming(true)}>
          Delete list
        </button>
      </footer>
      {results ? (
        <div className="flex flex-col gap-2 border-t border-base-200 px-4 py-3">
          <AddResultsList results={results} label={(r) => list.lines[r.row - 1]?.name ?? `Line ${r.row}`} />
          <Link to={paths.cart} className="link link-primary self-start text-sm">
            Go to cart
          </Link>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={`Delete the list ${list.name}?`}
        confirmLabel="Delete"
        isPending={remove.isPending}
        onConfirm={() => remove.mutate(list.id, { onSuccess: () => setConfirming(false), onError: showError })}
        onCancel={() => setConfirming(false)}
      >
        <p>Its lines go with it; your cart and orders stay as they are.</p>
      </ConfirmDialog>
    </article>
  );
}

function ListLine({ listId, line }: { listId: string; line: SavedList['lines'][number] }) {
  const setLine = useSetListLine();
  function save(quantity: number) {
    setLine.mutate({ listId, productId: line.productId, quantity }, { onError: showError });
  }
  return (
    <li className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="list-line">
      <OrderImage src={line.image} alt={line.name} />
      <div className="min-w-40 flex-1">
        <p className="font-medium break-words">{line.name}</p>
        <p className="text-xs text-base-content/70">
          {line.sku ? `SKU ${line.sku} · ` : ''}
          {line.sellerName} · {money(line.unitPrice)} each
        </p>
        {line.problem ? (
          <p className="mt-1 rounded-box bg-warning/20 px-2 py-0.5 text-sm" role="status">
            {line.problem.message}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {line.problem?.code === 'deleted' ? null : <QuantityStepper line={line} disabled={setLine.isPending} onCommit={save} />}
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => save(0)}
          disabled={setLine.isPending}
          aria-label={`Remove ${line.name} from the list`}
        >
          Remove
        </button>
      </div>
    </li>
  );
}
