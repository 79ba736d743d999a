import { useForm, useWatch, type Path, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import type { addProductInputSchema, updateProductInputSchema, Product } from '@bulkcart/contracts/product';
import { CATEGORIES } from '@bulkcart/contracts/categories';
import { LIMITS } from '@bulkcart/contracts/limits';
import { showServerError } from '@/components/form/apply-server-errors.ts';
import { FormField, fieldAria } from '@/components/form/form-field.tsx';
import { FormFooter } from '@/components/form/form-footer.tsx';
import { TiersEditor } from './tiers-editor.tsx';

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
  casepack: number | '';
  tiers: TierFormValues[];
  sku: string;
}

export interface TierFormValues {
  minquantity: number | '';
  price: number | '';
}

const invalidClass = 'aria-[invalid=true]:border-error';

export const blankProductValues: ProductFormValues = {
  image: '',
  image2: '',
  image3: '',
  name: '',
  mainquantity: '',
  minquantity: '',
  brandname: '',
  category: '',
  description: '',
  price: '',
  rating: '',
  Content: '',
  discount: '',
  casepack: '',
  tiers: [],
  sku: '',
};

/** Every field the server may name, the volume breaks' own (`tiers.1.price`) included. */
const fieldNames = [
  ...(Object.keys(blankProductValues) as Array<Path<ProductFormValues>>),
  ...Array.from({ length: LIMITS.tiersMax }, (_, i) => [`tiers.${i}.minquantity`, `tiers.${i}.price`] as const).flat(),
];

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
    casepack: product.casepack,
    tiers: product.tiers.map((t) => ({ minquantity: t.minquantity, price: t.price })),
    sku: product.sku ?? '',
  };
}

type ProductSchema = typeof addProductInputSchema | typeof updateProductInputSchema;

interface ProductFormProps<S extends ProductSchema> {
  /** The same zod schema the server parses the request with. */
  schema: S;
  defaultValues: ProductFormValues;
  submitLabel: string;
  /** Adding (docs/product/rules.md): description, price and rating may be left empty; updating needs them. */
  detailsOptional?: boolean;
  /** Saves; resolves with the values the form should show next, rejects with the server's error. */
  onSubmit: (input: z.output<S>) => Promise<ProductFormValues>;
}

/** The add and update form of docs/product/rules.md's product fields, validated by the shared contract schema. */
export function ProductForm<S extends ProductSchema>({ schema, defaultValues, submitLabel, detailsOptional = false, onSubmit }: ProductFormProps<S>) {
  const form = useForm<ProductFormValues, unknown, z.output<S>>({
    // The schema's input side is `unknown` for preprocessed numbers; the inputs hold the narrower type.
    resolver: zodResolver(schema) as unknown as Resolver<ProductFormValues, unknown, z.output<S>>,
    defaultValues,
  });
  const { register, handleSubmit, reset, setError, formState, control } = form;
  const [price, mainquantity, minquantity] = useWatch({ control, name: ['price', 'mainquantity', 'minquantity'] });
  const { errors, isSubmitting } = formState;

  const submit = handleSubmit(async (input) => {
    try {
      reset(await onSubmit(input));
    } catch (error) {
      showServerError(error, fieldNames, setError);
    }
  });

  const optional = detailsOptional ? 'Optional' : undefined;
  const hints: Partial<Record<keyof ProductFormValues, string>> = {
    price: optional,
    rating: optional,
    discount: 'Optional, 0 to 90',
    casepack: 'Optional: buyers order whole cases',
    sku: 'Optional: your own code; buyers can quick-order by it',
    image: 'An https URL or a path on this site',
    image2: 'Optional',
    image3: 'Optional',
    description: optional,
    Content: 'More information shown on the product page',
  };
  const aria = (name: keyof ProductFormValues) => fieldAria(`product-${name}`, errors[name]?.message, hints[name]);
  const text = (name: keyof ProductFormValues) => ({ ...register(name), ...aria(name) });
  const number = (name: keyof ProductFormValues) => ({
    type: 'number',
    inputMode: 'numeric' as const,
    step: 1,
    ...register(name, { valueAsNumber: true }),
    ...aria(name),
  });
  const field = (name: keyof ProductFormValues, label: string, wide = false) => ({
    id: `product-${name}`,
    label,
    error: errors[name]?.message,
    hint: hints[name],
    className: wide ? 'md:col-span-2' : '',
  });

  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-x-6 gap-y-4 md:grid-cols-2">
      <FormField {...field('name', 'Product name')}>
        <input className={`input w-full ${invalidClass}`} autoComplete="off" maxLength={LIMITS.nameMax} {...text('name')} />
      </FormField>
      <FormField {...field('brandname', 'Brand name')}>
        <input className={`input w-full ${invalidClass}`} autoComplete="off" maxLength={LIMITS.brandMax} {...text('brandname')} />
      </FormField>
      <FormField {...field('sku', 'SKU')}>
        <input className={`input w-full ${invalidClass}`} autoComplete="off" spellCheck={false} maxLength={LIMITS.skuMax} {...text('sku')} />
      </FormField>
      <FormField {...field('category', 'Category')}>
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
      </FormField>
      <FormField {...field('price', 'Price ($ per unit)')}>
        <input className={`input w-full ${invalidClass}`} min={0.01} {...number('price')} step={0.01} inputMode="decimal" />
      </FormField>
      <FormField {...field('mainquantity', 'Main quantity (in stock)')}>
        <input className={`input w-full ${invalidClass}`} min={0} {...number('mainquantity')} />
      </FormField>
      <FormField {...field('minquantity', 'Min buy quantity')}>
        <input className={`input w-full ${invalidClass}`} min={1} {...number('minquantity')} />
      </FormField>
      <FormField {...field('rating', 'Rating (1 to 5)')}>
        <input className={`input w-full ${invalidClass}`} min={1} max={5} {...number('rating')} />
      </FormField>
      <FormField {...field('discount', 'Discount (%)')}>
        <input className={`input w-full ${invalidClass}`} min={0} max={LIMITS.discountMax} {...number('discount')} />
      </FormField>
      <FormField {...field('casepack', 'Case pack (units per case)')}>
        <input className={`input w-full ${invalidClass}`} min={1} {...number('casepack')} />
      </FormField>
      <TiersEditor form={form} />
      <FormField {...field('image', 'Image URL')}>
        <input className={`input w-full ${invalidClass}`} type="text" inputMode="url" autoComplete="off" {...text('image')} />
      </FormField>
      <FormField {...field('image2', 'Second image URL')}>
        <input className={`input w-full ${invalidClass}`} type="text" inputMode="url" autoComplete="off" {...text('image2')} />
      </FormField>
      <FormField {...field('image3', 'Third image URL')}>
        <input className={`input w-full ${invalidClass}`} type="text" inputMode="url" autoComplete="off" {...text('image3')} />
      </FormField>
      <FormField {...field('description', 'Short description', true)}>
        <textarea className={`textarea w-full ${invalidClass}`} rows={3} maxLength={LIMITS.descriptionMax} {...text('description')} />
      </FormField>
      <FormField {...field('Content', 'Product Content', true)}>
        <textarea className={`textarea w-full ${invalidClass}`} rows={6} maxLength={LIMITS.contentMax} {...text('Content')} />
      </FormField>
      <ListingWarnings hasPrice={typeof price === 'number' && !Number.isNaN(price)} mainquantity={mainquantity} minquantity={minquantity} />
      <FormFooter serverError={errors.root?.server?.message} isSubmitting={isSubmitting}>
        {submitLabel}
      </FormFooter>
    </form>
  );
}

/**
 * Listings nobody can buy are allowed (a seller may be restocking or still pricing) but said out loud
 * before saving, in the words buyers would see.
 */
function ListingWarnings({ hasPrice, mainquantity, minquantity }: { hasPrice: boolean; mainquantity: number | ''; minquantity: number | '' }) {
  const belowMoq = typeof mainquantity === 'number' && typeof minquantity === 'number' && mainquantity < minquantity;
  if (hasPrice && !belowMoq) return null;
  return (
    <ul className="flex flex-col gap-1 rounded-box bg-warning/15 p-3 text-sm md:col-span-2" data-testid="listing-warnings">
      {!hasPrice ? <li>No price yet: buyers cannot buy this product until it has one.</li> : null}
      {belowMoq ? <li>Stock is below the min buy quantity: buyers will see &quot;Out of stock&quot;.</li> : null}
    </ul>
  );
}
