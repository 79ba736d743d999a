import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { acceptOrderInputSchema, declineOrderInputSchema, shipByWindow, shipOrderInputSchema, ORDER_TEXT_MAX, type Order } from '@bulkcart/contracts/order';
import { FormField, fieldAria, inputClass } from '../../../components/form/form-field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { notify } from '../../../components/notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSaleAction, type SaleAction } from '../api/sale-actions.ts';
import type { SellerMove } from '../lib/order-display.ts';
import { ShipByField, shipByProblem } from './ship-by-field.tsx';
import { Spinner } from '../../../components/spinner.tsx';

const COPY: Record<SellerMove, { title: (n: string) => string; confirm: string; done: (n: string) => string; warning: string }> = {
  accept: { title: (n) => `Accept order ${n}`, confirm: 'Accept order', done: (n) => `Order ${n} accepted`, warning: 'You promise to ship by this date; the buyer is told.' },
  decline: { title: (n) => `Decline order ${n}`, confirm: 'Decline order', done: (n) => `Order ${n} declined`, warning: 'This cannot be undone. The stock goes back to the product and the buyer is told why.' },
  ship: { title: (n) => `Ship order ${n}`, confirm: 'Mark shipped', done: (n) => `Order ${n} shipped`, warning: 'This cannot be undone; the buyer is told it is on its way.' },
  deliver: { title: (n) => `Mark order ${n} delivered`, confirm: 'Mark delivered', done: (n) => `Order ${n} delivered`, warning: 'This cannot be undone; the order is complete.' },
};

type Errors = Record<string, string | undefined>;

function fieldErrorsOf(error: z.ZodError): Errors {
  const errors: Errors = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? '_')] ??= issue.message;
  return errors;
}

/**
 * The confirm step of every seller move, holding what the move needs: a ship-by date (two business
 * days ahead by default, three at most), a reason, or the carrier and tracking number. Validated by
 * the shared schemas; the server's field errors land on the same fields.
 */
export function SaleActionDialog({ order, move, onClose }: { order: Order; move: SellerMove; onClose: () => void }) {
  const id = useId();
  const [dates] = useState(() => shipByWindow(new Date()));
  const [shipBy, setShipBy] = useState(dates.default);
  const [reason, setReason] = useState('');
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const action = useSaleAction();
  const copy = COPY[move];

  function build(): SaleAction | null {
    const parsed =
      move === 'accept'
        ? acceptOrderInputSchema.safeParse({ shipBy })
        : move === 'decline'
          ? declineOrderInputSchema.safeParse({ reason })
          : move === 'ship'
            ? shipOrderInputSchema.safeParse({ carrier, tracking })
            : null;
    if (parsed && !parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return null;
    }
    const outOfWindow = move === 'accept' ? shipByProblem(shipBy, dates) : null;
    if (outOfWindow) {
      setErrors({ shipBy: outOfWindow });
      return null;
    }
    switch (move) {
      case 'accept':
        return { kind: 'accept', input: { shipBy } };
      case 'decline':
        return { kind: 'decline', input: { reason: reason.trim() } };
      case 'ship':
        return { kind: 'ship', input: { carrier: carrier.trim() || undefined, tracking: tracking.trim() || undefined } };
      case 'deliver':
        return { kind: 'deliver' };
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (action.isPending) return;
    const built = build();
    if (!built) return;
    setErrors({});
    action.mutate(
      { id: order._id, action: built },
      {
        onSuccess: () => {
          notify({ kind: 'success', text: copy.done(order.number), durationMs: 1000 });
          onClose();
        },
        onError: (error) => {
          const fieldErrors = error instanceof ApiError ? Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.join(' ')])) : {};
          setErrors(fieldErrors);
          notify({ kind: 'error', title: error.title || 'Error', text: error.message });
          // 409: someone acted first (the buyer cancelled, the sweep ran); the list now shows it.
          if (error.status === 409 || error.status === 404) onClose();
        },
      },
    );
  }

  const formId = `${id}-form`;
  return (
    <Modal
      open
      title={copy.title(order.number)}
      onClose={() => {
        if (!action.isPending) onClose();
      }}
      actions={
        <>
          <button type="submit" form={formId} className={`btn ${move === 'decline' ? 'btn-error' : 'btn-primary'}`} disabled={action.isPending}>
            {action.isPending ? <Spinner inline /> : null}
            {copy.confirm}
          </button>
          <button type="button" className="btn" onClick={onClose} disabled={action.isPending}>
            Back
          </button>
        </>
      }
    >
      <form id={formId} noValidate className="flex flex-col gap-3" onSubmit={submit}>
        <p className="text-sm break-words">
          {order.buyerName} · {order.lines.map((l) => `${l.quantity} × ${l.product.name}`).join(', ')}
        </p>
        {move === 'accept' ? <ShipByField id={`${id}-ship-by`} dates={dates} value={shipBy} error={errors.shipBy} onChange={setShipBy} /> : null}
        {move === 'decline' ? (
          <FormField id={`${id}-reason`} label="Reason" error={errors.reason} hint="The buyer sees this.">
            <textarea
              {...fieldAria(`${id}-reason`, errors.reason, 'hint')}
              className={`textarea w-full border ${errors.reason ? 'border-error' : 'border-base-content/25'}`}
              rows={3}
              maxLength={ORDER_TEXT_MAX.reason}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              autoFocus
            />
          </FormField>
        ) : null}
        {move === 'ship' ? (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <FormField id={`${id}-carrier`} label="Carrier (optional)" error={errors.carrier}>
              <input {...fieldAria(`${id}-carrier`, errors.carrier)} className={inputClass(Boolean(errors.carrier))} maxLength={ORDER_TEXT_MAX.carrier} value={carrier} onChange={(e) => setCarrier(e.target.value)} />
            </FormField>
            <FormField id={`${id}-tracking`} label="Tracking number (optional)" error={errors.tracking}>
              <input {...fieldAria(`${id}-tracking`, errors.tracking)} className={inputClass(Boolean(errors.tracking))} maxLength={ORDER_TEXT_MAX.tracking} value={tracking} onChange={(e) => setTracking(e.target.value)} />
            </FormField>
          </div>
        ) : null}
        <p className="text-sm text-base-content/70">{copy.warning}</p>
      </form>
    </Modal>
  );
}
