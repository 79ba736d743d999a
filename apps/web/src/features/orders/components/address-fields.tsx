import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { Address } from '@bulkcart/contracts/address';
import { FormField, fieldAria, inputClass } from '@/components/form/form-field.tsx';

/** What the inputs hold: text as typed; line2 is '' when left empty. */
export type AddressFormValues = Required<Address>;

export const blankAddress: AddressFormValues = { company: '', line1: '', line2: '', city: '', region: '', postalCode: '', country: '', phone: '' };

export const ADDRESS_FIELD_NAMES = Object.keys(blankAddress) as Array<keyof AddressFormValues>;

export function toAddressFormValues(address: Address): AddressFormValues {
  return { ...address, line2: address.line2 ?? '' };
}

const FIELDS: Array<{ name: keyof AddressFormValues; label: string; autoComplete: string; wide?: boolean; hint?: string }> = [
  { name: 'company', label: 'Company', autoComplete: 'organization' },
  { name: 'phone', label: 'Phone', autoComplete: 'tel' },
  { name: 'line1', label: 'Address line 1', autoComplete: 'address-line1', wide: true },
  { name: 'line2', label: 'Address line 2 (optional)', autoComplete: 'address-line2', wide: true },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
  { name: 'region', label: 'State or region', autoComplete: 'address-level1' },
  { name: 'postalCode', label: 'Postal code', autoComplete: 'postal-code' },
  { name: 'country', label: 'Country', autoComplete: 'country', hint: 'Two letters, such as US' },
];

/**
 * A compact ship-to form (two columns from the small breakpoint), its fields registered on the
 * caller's react-hook-form, validated by the shared addressSchema.
 */
export function AddressFields({
  idPrefix,
  register,
  errors,
}: {
  idPrefix: string;
  register: UseFormRegister<AddressFormValues>;
  errors: FieldErrors<AddressFormValues>;
}) {
  return (
    <fieldset className="grid grid-cols-1 gap-x-3 gap-y-2 sm:grid-cols-2" data-testid="ship-to-form">
      <legend className="mb-1 text-sm font-semibold">Ship to</legend>
      {FIELDS.map(({ name, label, autoComplete, wide, hint }) => {
        const id = `${idPrefix}-${name}`;
        const error = errors[name]?.message;
        return (
          <FormField key={name} id={id} label={label} error={error} hint={hint} className={wide ? 'sm:col-span-2' : ''}>
            <input
              {...register(name)}
              {...fieldAria(id, error, hint)}
              type={name === 'phone' ? 'tel' : 'text'}
              autoComplete={`shipping ${autoComplete}`}
              maxLength={name === 'country' ? 2 : undefined}
              className={`${inputClass(Boolean(error))} input-sm ${name === 'country' ? 'uppercase' : ''}`}
            />
          </FormField>
        );
      })}
    </fieldset>
  );
}
