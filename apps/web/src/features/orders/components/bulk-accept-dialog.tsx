import { useId, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { shipByWindow, type AcceptOrderInput, type Sale } from '@bulkcart/contracts/order';
import { applyServerErrors } from '@/components/form/apply-server-errors.ts';
import { Modal } from '@/components/modal.tsx';
import { notify } from '@/components/notice.tsx';
import { useAcceptSales } from '@/features/orders/api/sale-actions.ts';
import { ShipByField, acceptWithinWindowSchema } from './ship-by-field.tsx';
import { Spinner } from '@/components/spinner.tsx';

/** "BC-10001, BC-10002 and BC-10003" */
function listNumbers(numbers: string[]): string {
  return numbers.length <= 1 ? (numbers[0] ?? '') : `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/**
 * The desk's "Accept selected": the chosen placed orders accepted in one step with one ship-by date.
 * Each order stands alone: one the buyer cancelled meanwhile is named in an error notice while the
 * others are accepted (and confirmed in a success notice).
 */
export function BulkAcceptDialog({ orders, onClose, onDone }: { orders: Sale[]; onClose: () => void; onDone: () => void }) {
  const id = useId();
  const [dates] = useState(() => shipByWindow(new Date()));
  const [schema] = useState(() => acceptWithinWindowSchema(dates));
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<{ shipBy: string }, unknown, AcceptOrderInput>({
    resolver: zodResolver(schema) as unknown as Resolver<{ shipBy: string }, unknown, AcceptOrderInput>,
    defaultValues: { shipBy: dates.default },
  });
  const accept = useAcceptSales();
  const numbers = orders.map((order) => order.number);

  const submit = handleSubmit(({ shipBy }) => {
    if (accept.isPending) return;
    accept.mutate(
      { ids: orders.map((order) => order._id), shipBy },
      {
        onSuccess: ({ accepted, refused }) => {
          if (accepted.length > 0) {
            // Named in the order the seller saw them, not the server's.
            const done = new Set(accepted.map((order) => order._id));
            const names = listNumbers(orders.filter((order) => done.has(order._id)).map((order) => order.number));
            notify({ kind: 'success', text: accepted.length === 1 ? `Order ${names} accepted` : `Orders ${names} accepted`, durationMs: 1000 });
          }
          if (refused.length > 0) {
            notify({
              kind: 'error',
              title: refused.length === 1 ? 'One order not accepted' : `${refused.length} orders not accepted`,
              text: refused.map((r) => `${r.number ?? 'An order'}: ${r.message}`).join(' '),
            });
          }
          onDone();
        },
        onError: (failure) => {
          applyServerErrors(failure, ['shipBy'], setError);
          notify({ kind: 'error', title: failure.title || 'Error', text: failure.message });
        },
      },
    );
  });

  const formId = `${id}-form`;
  return (
    <Modal
      open
      title={`Accept ${orders.length} orders`}
      onClose={() => {
        if (!accept.isPending) onClose();
      }}
      actions={
        <>
          <button type="submit" form={formId} className="btn btn-primary" disabled={accept.isPending}>
            {accept.isPending ? <Spinner inline /> : null}
            Accept {orders.length} orders
          </button>
          <button type="button" className="btn" onClick={onClose} disabled={accept.isPending}>
            Back
          </button>
        </>
      }
    >
      <form id={formId} noValidate className="flex flex-col gap-3" onSubmit={submit}>
        <p className="text-sm break-words" data-testid="bulk-accept-orders">
          {listNumbers(numbers)}
        </p>
        <ShipByField id={`${id}-ship-by`} dates={dates} error={errors.shipBy?.message} field={register('shipBy')} />
        <p className="text-sm text-base-content/70">You promise to ship them all by this date; each buyer is told.</p>
      </form>
    </Modal>
  );
}
