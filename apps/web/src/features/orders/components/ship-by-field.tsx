import type { UseFormRegisterReturn } from 'react-hook-form';
import { acceptOrderInputSchema, type shipByWindow } from '@bulkcart/contracts/order';
import { FormField, fieldAria, inputClass } from '@/components/form/form-field.tsx';

export type ShipByDates = ReturnType<typeof shipByWindow>;

/**
 * The accept forms' schema: the shared one, plus the browser's first check of the date against the
 * window the server enforces (today's window, so the message can name its dates).
 */
export function acceptWithinWindowSchema(dates: ShipByDates) {
  return acceptOrderInputSchema.refine(({ shipBy }) => shipBy === undefined || (shipBy >= dates.min && shipBy <= dates.max), {
    path: ['shipBy'],
    message: `Choose a date from ${dates.min} to ${dates.max}`,
  });
}

/** The seller's promise when accepting: two business days ahead by default, three at most. */
export function ShipByField({
  id,
  dates,
  error,
  field,
}: {
  id: string;
  dates: ShipByDates;
  error: string | undefined;
  field: UseFormRegisterReturn<'shipBy'>;
}) {
  return (
    <FormField id={id} label="Ship by" error={error} hint="Two business days ahead by default; three at most.">
      <input
        {...field}
        {...fieldAria(id, error, 'hint')}
        type="date"
        className={inputClass(Boolean(error))}
        min={dates.min}
        max={dates.max}
        required
        autoFocus
      />
    </FormField>
  );
}
