import { useFieldArray, type UseFormRegisterReturn, type UseFormReturn } from 'react-hook-form';
import { LIMITS } from '@bulkcart/contracts/limits';
import { FormField, fieldAria } from '@/components/form/form-field.tsx';
import type { ProductFormValues } from './product-form.tsx';

const inputClass = 'input input-sm w-full aria-[invalid=true]:border-error';

/**
 * The volume breaks of the product form: up to LIMITS.tiersMax rows of "from N units, $X each". The
 * shared schema checks the ladder; its messages land on the row and field they name.
 */
export function TiersEditor({ form }: { form: UseFormReturn<ProductFormValues, unknown, unknown> }) {
  const { control, register, formState } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'tiers' });
  const errors = formState.errors.tiers;
  const listMessage = errors?.message ?? errors?.root?.message;

  return (
    <fieldset className="flex flex-col gap-2 md:col-span-2" aria-describedby="product-tiers-note">
      <legend className="text-sm font-medium">Volume pricing</legend>
      <p id="product-tiers-note" className={listMessage ? 'text-sm text-error' : 'text-xs text-base-content/60'}>
        {listMessage ?? `Optional: up to ${LIMITS.tiersMax} lower unit prices for larger orders, each below the one before.`}
      </p>
      {fields.map((field, i) => {
        const rowErrors = errors?.[i];
        return (
          <div key={field.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2" data-testid="tier-row">
            <TierInput
              id={`product-tiers-${i}-minquantity`}
              label={`Break ${i + 1}: from quantity`}
              error={rowErrors?.minquantity?.message}
              inputMode="numeric"
              min={2}
              step={1}
              registration={register(`tiers.${i}.minquantity`, { valueAsNumber: true })}
            />
            <TierInput
              id={`product-tiers-${i}-price`}
              label={`Break ${i + 1}: price ($ per unit)`}
              error={rowErrors?.price?.message}
              inputMode="decimal"
              min={0.01}
              step={0.01}
              registration={register(`tiers.${i}.price`, { valueAsNumber: true })}
            />
            <button type="button" className="btn btn-ghost btn-sm mt-5" aria-label={`Remove break ${i + 1}`} onClick={() => remove(i)}>
              Remove
            </button>
          </div>
        );
      })}
      {fields.length < LIMITS.tiersMax ? (
        <button type="button" className="btn btn-outline btn-sm self-start" onClick={() => append({ minquantity: '', price: '' })}>
          Add a volume break
        </button>
      ) : null}
    </fieldset>
  );
}

interface TierInputProps {
  id: string;
  label: string;
  error: string | undefined;
  inputMode: 'numeric' | 'decimal';
  min: number;
  step: number;
  registration: UseFormRegisterReturn;
}

function TierInput({ id, label, error, inputMode, min, step, registration }: TierInputProps) {
  return (
    <FormField id={id} label={label} error={error}>
      <input type="number" inputMode={inputMode} min={min} step={step} className={inputClass} {...registration} {...fieldAria(id, error)} />
    </FormField>
  );
}
