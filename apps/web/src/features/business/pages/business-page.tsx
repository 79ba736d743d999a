import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  BUSINESS_TYPE_LABELS,
  BUSINESS_TYPES,
  businessProfileInputSchema,
  type BusinessProfile,
  type BusinessProfileInput,
} from '@bulkcart/contracts/business';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { notify } from '@/components/notice.tsx';
import { FormField, fieldAria, inputClass } from '@/components/form/form-field.tsx';
import { FormFooter } from '@/components/form/form-footer.tsx';
import { showServerError } from '@/components/form/apply-server-errors.ts';
import { useBusinessProfile, useSaveBusinessProfile } from '@/features/business/api/business.ts';
import { StatusCard } from '@/features/business/components/status-card.tsx';
import { DocumentUpload } from '@/features/business/components/document-upload.tsx';

/** /business: the business profile, its verification status and the permit (docs/decisions/014). */
export function BusinessPage() {
  const profile = useBusinessProfile();
  if (profile.isPending) return <Spinner label="Loading your business profile" />;
  if (profile.isError) return <LoadError error={profile.error} onRetry={() => void profile.refetch()} />;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold md:text-3xl">Business profile</h1>
      <StatusCard profile={profile.data} />
      <BusinessForm profile={profile.data} />
      <DocumentUpload profile={profile.data} />
    </div>
  );
}

type Values = BusinessProfileInput;

const blankAddress = { company: '', line1: '', line2: '', city: '', region: '', postalCode: '', country: 'US', phone: '' };

function valuesOf(profile: BusinessProfile): Values {
  const p = profile.profile;
  return p
    ? { ...p, address: { ...blankAddress, ...p.address } }
    : { legalName: '', businessType: 'retail_store', permitNumber: '', permitRegion: '', permitExpires: '', address: blankAddress };
}

const FIELDS: Array<Path<Values>> = [
  'legalName',
  'businessType',
  'permitNumber',
  'permitRegion',
  'permitExpires',
  'address.company',
  'address.line1',
  'address.line2',
  'address.city',
  'address.region',
  'address.postalCode',
  'address.country',
  'address.phone',
];

function BusinessForm({ profile }: { profile: BusinessProfile }) {
  const save = useSaveBusinessProfile();
  const form = useForm<Values>({ resolver: zodResolver(businessProfileInputSchema), defaultValues: valuesOf(profile) });
  const { register, handleSubmit, formState, setError, reset, getFieldState } = form;
  const { errors, isSubmitting } = formState;
  const submit = handleSubmit(async (input) => {
    try {
      const saved = await save.mutateAsync(input);
      reset(valuesOf(saved));
      notify({
        kind: 'success',
        title: 'Saved',
        text: saved.status === 'pending' ? 'Your business details are saved and waiting for review.' : 'Your business details are saved.',
      });
    } catch (error) {
      showServerError(error, FIELDS, setError);
    }
  });
  const field = (name: Path<Values>, label: string, hint?: string, wide = false) => {
    const error = getFieldState(name, formState).error?.message;
    return {
      wrapper: { id: `business-${name}`, label, error, hint, className: wide ? 'md:col-span-2' : '' },
      input: { ...register(name), ...fieldAria(`business-${name}`, error, hint), className: inputClass(Boolean(error)) },
    };
  };
  const text = (name: Path<Values>, label: string, options: { hint?: string; wide?: boolean; autoComplete?: string } = {}) => {
    const f = field(name, label, options.hint, options.wide);
    return (
      <FormField {...f.wrapper}>
        <input type="text" autoComplete={options.autoComplete ?? 'off'} {...f.input} />
      </FormField>
    );
  };
  const type = field('businessType', 'Business type');
  const expires = field('permitExpires', 'Permit expiry date', 'Verification ends on this day');
  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-x-6 gap-y-4 rounded-box bg-base-100 p-4 ring-1 ring-base-300 md:grid-cols-2">
      <h2 className="text-lg font-bold md:col-span-2">Business details</h2>
      {text('legalName', 'Legal business name', { wide: true, autoComplete: 'organization' })}
      <FormField {...type.wrapper}>
        <select {...type.input} className={`select w-full border ${errors.businessType ? 'border-error' : 'border-base-content/25'}`}>
          {BUSINESS_TYPES.map((t) => (
            <option key={t} value={t}>
              {BUSINESS_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </FormField>
      {text('permitNumber', 'Tax or reseller permit number')}
      {text('permitRegion', 'Issuing region', { hint: 'The state or country that issued the permit' })}
      <FormField {...expires.wrapper}>
        <input type="date" {...expires.input} />
      </FormField>
      <h3 className="mt-2 font-semibold md:col-span-2">Business address</h3>
      {text('address.company', 'Company', { wide: true })}
      {text('address.line1', 'Address line 1', { autoComplete: 'address-line1' })}
      {text('address.line2', 'Address line 2', { hint: 'Optional', autoComplete: 'address-line2' })}
      {text('address.city', 'City', { autoComplete: 'address-level2' })}
      {text('address.region', 'State or region', { autoComplete: 'address-level1' })}
      {text('address.postalCode', 'Postal code', { autoComplete: 'postal-code' })}
      {text('address.country', 'Country', { hint: 'Two letters, such as US', autoComplete: 'country' })}
      {text('address.phone', 'Phone', { autoComplete: 'tel' })}
      <FormFooter serverError={errors.root?.server?.message} isSubmitting={isSubmitting}>
        Save business details
      </FormFooter>
    </form>
  );
}
