import { useId, useState, type FormEvent } from 'react';
import type { Product } from '@bulkcart/contracts/product';
import { CART_LIMITS } from '@bulkcart/contracts/cart-rules';
import { paths } from '@bulkcart/contracts/routes';
import { Link } from '@/lib/router.tsx';
import { Modal } from '@/components/modal.tsx';
import { notify } from '@/components/notice.tsx';
import { useCreateList, useLists, useSetListLine } from '@/features/orders/api/lists.ts';

const NEW_LIST = 'new';

/** Add to list: the chosen quantity into one of the buyer's lists, or into a new one named here. */
export function AddToListDialog({ product, quantity, onClose }: { product: Product; quantity: number; onClose: () => void }) {
  const id = useId();
  const lists = useLists();
  const createList = useCreateList();
  const setLine = useSetListLine();
  const [choice, setChoice] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const existing = lists.data ?? [];
  const selected = choice ?? existing[0]?.id ?? NEW_LIST;
  const busy = createList.isPending || setLine.isPending;

  function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const done = (listName: string) => {
      notify({ kind: 'success', title: 'Added to list', text: `${quantity} × ${product.name} in ${listName}`, durationMs: 2000 });
      onClose();
    };
    const failed = (e: Error) => setError(e.message);
    if (selected === NEW_LIST) {
      if (!name.trim()) return setError('Name the list');
      createList.mutate({ name, lines: [{ productId: product._id, quantity }] }, { onSuccess: (list) => done(list.name), onError: failed });
    } else {
      setLine.mutate({ listId: selected, productId: product._id, quantity }, { onSuccess: (list) => done(list.name), onError: failed });
    }
  }

  return (
    <Modal
      open
      onClose={onClose}
      title="Add to list"
      actions={
        <button type="submit" form={`${id}-form`} className="btn btn-primary" disabled={busy || lists.isPending}>
          Save to list
        </button>
      }
    >
      <form id={`${id}-form`} className="flex flex-col gap-3" noValidate onSubmit={save}>
        <p className="text-sm">
          <span className="font-semibold break-words">{product.name}</span> · {quantity} units
        </p>
        {lists.isPending ? (
          <p className="text-sm text-base-content/70" role="status">
            Loading your lists
          </p>
        ) : (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">Which list</legend>
            {existing.map((list) => (
              <label key={list.id} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  className="radio radio-sm"
                  name={`${id}-list`}
                  value={list.id}
                  checked={selected === list.id}
                  onChange={() => setChoice(list.id)}
                />
                <span className="break-words">
                  {list.name} <span className="text-base-content/60">({list.lines.length} lines)</span>
                </span>
              </label>
            ))}
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                className="radio radio-sm"
                name={`${id}-list`}
                value={NEW_LIST}
                checked={selected === NEW_LIST}
                onChange={() => setChoice(NEW_LIST)}
                disabled={existing.length >= CART_LIMITS.lists}
              />
              A new list
            </label>
            {selected === NEW_LIST ? (
              <div className="flex flex-col gap-1 pl-6">
                <label htmlFor={`${id}-name`} className="text-sm">
                  List name
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
            ) : null}
          </fieldset>
        )}
        {error ? (
          <p className="text-sm text-error" role="alert">
            {error}
          </p>
        ) : null}
        <Link to={paths.lists} className="link link-primary self-start text-sm" onClick={onClose}>
          See your lists
        </Link>
      </form>
    </Modal>
  );
}
