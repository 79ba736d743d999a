import { useId, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  declineOrderInputSchema,
  shipByWindow,
  shipOrderInputSchema,
  ORDER_TEXT_MAX,
  type AcceptOrderInput,
  type DeclineOrderInput,
  type Order,
  type ShipOrderInput,
} from '@bulkcart/contracts/order';
import { FormField, fieldAria, inputClass } from '@/components/form/form-field.tsx';
import { applyServerErrors } from '@/components/form/apply-server-errors.ts';
import { Modal } from '@/components/modal.tsx';
import { notify } from '@/components/notice.tsx';
import { useSaleAction, type SaleAction } from '@/features/orders/api/sale-actions.ts';
import type { SellerMove } from '@/features/orders/lib/order-display.ts';
import { ShipByField, acceptWithinWindowSchema, type ShipByDates } from './ship-by-field.tsx';
import { Spinner } from '@/components/spinner.tsx';

const COPY: Record<SellerMove, { title: (n: string) => string; confirm: string; done: (n: string) => string; warning: string }> = {
  accept: {
    title: (n) => `Accept order ${n}`,
    confirm: 'Accept order',
    done: (n) => `Order ${n} accepted`,
    warning: 'You promise to ship by this date; the buyer is told.',
  },
  decline: {
    title: (n) => `Decline order ${n}`,
    confirm: 'Decline order',
    done: (n) => `Order ${n} declined`,
    warning: 'This cannot be undone. The stock goes back to the product and the buyer is told why.',
  },
  ship: {
    title: (n) => `Ship order ${n}`,
    confirm: 'Mark shipped',
    done: (n) => `Order ${n} shipped`,
    warning: 'This cannot be undone; the buyer is told it is on its way.',
  },
  deliver: {
    title: (n) => `Mark order ${n} delivered`,
    confirm: 'Mark delivered',
    done: (n) => `Order ${n} delivered`,
    warning: 'This cannot be undone; the order is complete.',
  },
};

/** What the dialog's fields hold, as typed; each move's schema reads the ones it needs. */
interface SaleFormValues {
  shipBy: string;
  reason: string;
  carrier: string;
  tracking: string;
}

/** What a move's schema gives back: the shared input of that move. */
type SaleFormOutput = Partial<AcceptOrderInput & DeclineOrderInput & ShipOrderInput>;

const FIELDS = ['shipBy', 'reason', 'carrier', 'tracking'] as const;

/** Each move's shared schema (the server runs the same one); accept also checks today's ship-by window. */
function schemaFor(move: SellerMove, dates: ShipByDates) {
  switch (move) {
    case 'accept':
      return acceptWithinWindowSchema(dates);
    case 'decline':
      return declineOrderInputSchema;
    case 'ship':
      return shipOrderInputSchema;
    case 'deliver':
      return z.object({});
  }
}

function actionOf(move: SellerMove, input: SaleFormOutput): SaleAction {
  switch (move) {
    case 'accept':
      return { kind: 'accept', input: { shipBy: input.shipBy } };
    case 'decline':
      return { kind: 'decline', input: { reason: input.reason ?? '' } };
    case 'ship':
      return { kind: 'ship', input: { carrier: input.carrier, tracking: input.tracking } };
    case 'deliver':
      return { kind: 'deliver' };
  }
}

/**
 * The confirm step of every seller move, holding what the move needs: a ship-by date (two business
 * days ahead by default, three at most), a reason, or the carrier and tracking number. A form of the
 * form kit: the move's shared schema checks it first, and the server's field errors land on the
 * same fields.
 */
export function SaleActionDialog({ order, move, onClose }: { order: Order; move: SellerMove; onClose: () => void }) {
  const id = useId();
  const [dates] = useState(() => shipByWindow(new Date()));
  const [schema] = useState(() => schemaFor(move, dates));
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SaleFormValues, unknown, SaleFormOutput>({
    resolver: zodResolver(schema) as unknown as Resolver<SaleFormValues, unknown, SaleFormOutput>,
    defaultValues: { shipBy: dates.default, reason: '', carrier: '', tracking: '' },
  });
  const action = useSaleAction();
  const copy = COPY[move];

  const submit = handleSubmit((input) => {
    if (action.isPending) return;
    action.mutate(
      { id: order._id, action: actionOf(move, input) },
      {
        onSuccess: () => {
          notify({ kind: 'success', text: copy.done(order.number), durationMs: 1000 });
          onClose();
        },
        onError: (error) => {
          applyServerErrors(error, FIELDS, setError);
          notify({ kind: 'error', title: error.title || 'Error', text: error.message });
          // 409: someone acted first (the buyer cancelled, the sweep ran); the list now shows it.
          if (error.status === 409 || error.status === 404) onClose();
        },
      },
    );
  });

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
        {move === 'accept' ? <ShipByField id={`${id}-ship-by`} dates={dates} error={errors.shipBy?.message} field={register('shipBy')} /> : null}
        {move === 'decline' ? (
          <FormField id={`${id}-reason`} label="Reason" error={errors.reason?.message} hint="The buyer sees this.">
            <textarea
              {...register('reason')}
              {...fieldAria(`${id}-reason`, errors.reason?.message, 'hint')}
              className={`textarea w-full border ${errors.reason ? 'border-error' : 'border-base-content/25'}`}
              rows={3}
              maxLength={ORDER_TEXT_MAX.reason}
              autoFocus
            />
          </FormField>
        ) : null}
        {move === 'ship' ? (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <FormField id={`${id}-carrier`} label="Carrier (optional)" error={errors.carrier?.message}>
              <input
                {...register('carrier')}
                {...fieldAria(`${id}-carrier`, errors.carrier?.message)}
                className={inputClass(Boolean(errors.carrier))}
                maxLength={ORDER_TEXT_MAX.carrier}
              />
            </FormField>
            <FormField id={`${id}-tracking`} label="Tracking number (optional)" error={errors.tracking?.message}>
              <input
                {...register('tracking')}
                {...fieldAria(`${id}-tracking`, errors.tracking?.message)}
                className={inputClass(Boolean(errors.tracking))}
                maxLength={ORDER_TEXT_MAX.tracking}
              />
            </FormField>
          </div>
        ) : null}
        <p className="text-sm text-base-content/70">{copy.warning}</p>
      </form>
    </Modal>
  );
}
