import type { shipByWindow } from '@bulkcart/contracts/order';
import { FormField, fieldAria, inputClass } from '../../../components/form/form-field.tsx';

export type ShipByDates = ReturnType<typeof shipByWindow>;

/** The browser's first check of a ship-by date against the window the server enforces; null when fine. */
export function shipByProblem(shipBy: string, dates: ShipByDates): string | null {
  return shipBy < dates.min || shipBy > dates.max ? `Choose a date from ${dates.min} to ${dates.max}` : null;
}

/** The seller's promise when accepting: two business days ahead by default, three at most. */
export function ShipByField({ id, dates, value, error, onChange }: { id: string; dates: ShipByDates; value: string; error: string | undefined; onChange: (value: string) => void }) {
  return (
    <FormField id={id} label="Ship by" error={error} hint="Two business days ahead by default; three at most.">
      <input
        {...fieldAria(id, error, 'hint')}
        type="date"
        className={inputClass(Boolean(error))}
        min={dates.min}
        max={dates.max}
        value={value}
        required
        onChange={(e) => onChange(e.target.value)}
        autoFocus
      />
    </FormField>
  );
}
