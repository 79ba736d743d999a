import type { ReactNode } from 'react';
import { useForm, type Path, type Resolver, type UseFormSetError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import type { addProductInputSchema, updateProductInputSchema, Product } from '@bulkcart/contracts/product';
import { CATEGORIES } from '@bulkcart/contracts/categories';
import { LIMITS } from '@bulkcart/contracts/limits';
import { ApiError } from '../../../lib/api-client.ts';

/** What the inputs hold: text as typed, numbers from valueAsNumber ('' until one is typed). */
export interface ProductFormValues {
  image: string;
  image2: string;
  image3: string;
  name: string;
  mainquantity: number | '';
  minquantity: number | '';
  brandname: string;
  category: string;
  description: string;
  price: number | '';
  rating: number | '';
  Content: string;
  discount: number | '';
}

const invalidClass = 'aria-[invalid=true]:border-error';

const fieldNames = new Set<string>([
  'image', 'image2', 'image3', 'name', 'mainquantity', 'minquantity', 'brandname', 'category', 'description', 'price', 'rating', 'Content', 'discount',
]);

export const blankProductValues: ProductFormValues = {
  image: '', image2: '', image3: '', name: '', mainquantity: '', minquantity: '', brandname: '', category: '',
  description: '', price: '', rating: '', Content: '', discount: '',
};

export function toProductFormValues(product: Product): ProductFormValues {
  return {
    image: product.image,
    image2: product.image2 ?? '',
    image3: product.image3 ?? '',
    name: product.name,
    mainquantity: product.mainquantity,
    minquantity: product.minquantity,
    brandname: product.brandname,
    category: product.category,
    description: product.description ?? '',
    price: product.price ?? '',
    rating: product.rating ?? '',
    Content: product.Content ?? '',
    discount: product.discount,
  };
}

type ProductSchema = typeof addProductInputSchema | typeof updateProductInputSchema;

interface ProductFormProps<S extends ProductSchema> {
  /** The same zod schema the server parses the request with. */
  schema: S;
  defaultValues: ProductFormValues;
  submitLabel: string;
  /** Adding (spec §5): description, price and rating may be left empty; updating needs them. */
  detailsOptional?: boolean;
  /** Saves; resolves with the values the form should show next, rejects with the server's error. */
  onSubmit: (input: z.output<S>) => Promise<ProductFormValues>;
}

/** The add and update form of spec §3's product fields, validated by the shared contract schema. */
export function ProductForm<S extends ProductSchema>({ schema, defaultValues, submitLabel, detailsOptional = false, onSubmit }: ProductFormProps<S>) {
  const form = useForm<ProductFormValues, unknown, z.output<S>>({
    // The schema's input side is `unknown` for preprocessed numbers; the inputs hold the narrower type.
    resolver: zodResolver(schema) as unknown as Resolver<ProductFormValues, unknown, z.output<S>>,
    defaultValues,
  });
  const { register, handleSubmit, reset, setError, formState } = form;
  const { errors, isSubmitting } = formState;

  const submit = handleSubmit(async (input) => {
    try {
      reset(await onSubmit(input));
    } catch (error) {
      showServerFieldErrors(error, setError);
    }
  });

  const text = (name: keyof ProductFormValues) => ({ id: `product-${name}`, ...register(name), ...describedBy(name, errors) });
  const number = (name: keyof ProductFormValues) => ({
    id: `product-${name}`,
    type: 'number',
    inputMode: 'numeric' as const,
    step: 1,
    ...register(name, { valueAsNumber: true }),
    ...describedBy(name, errors),
  });

  const optional = detailsOptional ? 'Optional' : undefined;

  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-x-6 gap-y-4 md:grid-cols-2">
      <Field name="name" label="Product name" errors={errors}>
        <input className={`input w-full ${invalidClass}`} autoComplete="off" maxLength={LIMITS.nameMax} {...text('name')} />
      </Field>
      <Field name="brandname" label="Brand name" errors={errors}>
        <input className={`input w-full ${invalidClass}`} autoComplete="off" maxLength={LIMITS.brandMax} {...text('brandname')} />
      </Field>
      <Field name="category" label="Category" errors={errors}>
        <select className={`select w-full ${invalidClass}`} {...text('category')}>
          <option value="" disabled>
            Choose a category
          </option>
          {CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </select>
      </Field>
      <Field name="price" label="Price ($ per unit)" hint={optional} errors={errors}>
        <input className={`input w-full ${invalidClass}`} min={1} {...number('price')} />
      </Field>
      <Field name="mainquantity" label="Main quantity (in stock)" errors={errors}>
        <input className={`input w-full ${invalidClass}`} min={0} {...number('mainquantity')} />
      </Field>
      <Field name="minquantity" label="Min buy quantity" errors={errors}>
        <input className={`input w-full ${invalidClass}`} min={1} {...number('minquantity')} />
      </Field>
      <Field name="rating" label="Rating (1 to 5)" hint={optional} errors={errors}>
        <input className={`input w-full ${invalidClass}`} min={1} max={5} {...number('rating')} />
      </Field>
      <Field name="discount" label="Discount (%)" hint="Optional, 0 to 90" errors={errors}>
        <input className={`input w-full ${invalidClass}`} min={0} max={LIMITS.discountMax} {...number('discount')} />
      </Field>
      <Field name="image" label="Image URL" hint="An https URL or a path on this site" errors={errors}>
        <input className={`input w-full ${invalidClass}`} type="text" inputMode="url" autoComplete="off" {...text('image')} />
      </Field>
      <Field name="image2" label="Second image URL" hint="Optional" errors={errors}>
        <input className={`input w-full ${invalidClass}`} type="text" inputMode="url" autoComplete="off" {...text('image2')} />
      </Field>
      <Field name="image3" label="Third image URL" hint="Optional" errors={errors}>
        <input className={`input w-full ${invalidClass}`} type="text" inputMode="url" autoComplete="off" {...text('image3')} />
      </Field>
      <Field name="description" label="Short description" hint={optional} errors={errors} wide>
        <textarea className={`textarea w-full ${invalidClass}`} rows={3} maxLength={LIMITS.descriptionMax} {...text('description')} />
      </Field>
      <Field name="Content" label="Product Content" hint="More information shown on the product page" errors={errors} wide>
        <textarea className={`textarea w-full ${invalidClass}`} rows={6} maxLength={LIMITS.contentMax} {...text('Content')} />
      </Field>
      {errors.root?.server ? (
        <p role="alert" className="text-error md:col-span-2">
          {errors.root.server.message}
        </p>
      ) : null}
      <div className="md:col-span-2">
        <button type="submit" className="btn btn-primary w-full md:w-auto" disabled={isSubmitting}>
          {isSubmitting ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

type FormErrors = ReturnType<typeof useForm<ProductFormValues>>['formState']['errors'];

function describedBy(name: keyof ProductFormValues, errors: FormErrors) {
  // The note under a field is its error when there is one, else its hint: one id serves both.
  return { 'aria-invalid': Boolean(errors[name]), 'aria-describedby': `product-${name}-note` };
}

function Field({ name, label, hint, errors, wide = false, children }: { name: keyof ProductFormValues; label: string; hint?: string; errors: FormErrors; wide?: boolean; children: ReactNode }) {
  const message = errors[name]?.message;
  return (
    <div className={`flex flex-col gap-1 ${wide ? 'md:col-span-2' : ''}`}>
      <label htmlFor={`product-${name}`} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {message ? (
        <p id={`product-${name}-note`} className="text-sm text-error">
          {message}
        </p>
      ) : hint ? (
        <p id={`product-${name}-note`} className="text-xs text-base-content/60">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** Puts the server's per-field messages next to their inputs; anything else goes above the button. */
function showServerFieldErrors(error: unknown, setError: UseFormSetError<ProductFormValues>): void {
  if (!(error instanceof ApiError)) return;
  let shownNextToField = false;
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const message = messages.join(' ');
    if (fieldNames.has(field)) {
      setError(field as Path<ProductFormValues>, { type: 'server', message });
      shownNextToField = true;
    } else {
      setError('root.server', { type: 'server', message });
    }
  }
  if (!shownNextToField && Object.keys(error.fieldErrors).length === 0) setError('root.server', { type: 'server', message: error.message });
}
