import { z } from 'zod';
import { CATEGORIES } from './categories.ts';
import { LIMITS } from './limits.ts';

/**
 * Form inputs hand over '' or NaN for an empty number field; JSON clients send nothing. Both mean
 * "not given", so the browser and the server see the same thing through the same schema.
 */
function blankToUndefined(value: unknown): unknown {
  if (value === '' || value === null || (typeof value === 'number' && Number.isNaN(value))) return undefined;
  return value;
}

const wholeNumber = (min: number, max: number, label: string) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max.toLocaleString('en-US')}`);

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const optionalText = (label: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    z.string().trim().max(max, `${label} must be at most ${max} characters`).optional(),
  );

/**
 * An image is an https URL or a path on this server. `javascript:`, `data:`, protocol-relative and
 * plain http URLs are refused: they are how stored content turns into script or mixed content.
 */
export const imageUrlSchema = z
  .string({ error: 'Image is required' })
  .trim()
  .min(1, 'Image is required')
  .max(LIMITS.imageUrlMax, 'Image URL is too long')
  .refine(isSafeImageUrl, 'Image must be an https URL or a path on this site (starting with /)');

export function isSafeImageUrl(value: string): boolean {
  if (/[\s\\<>"']/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const optionalImage = z.preprocess(blankToUndefined, imageUrlSchema.optional());

const categorySchema = z.enum(CATEGORIES, { error: 'Choose one of the six categories' });

const baseProductFields = {
  image: imageUrlSchema,
  image2: optionalImage,
  image3: optionalImage,
  name: requiredText('Name', LIMITS.nameMax),
  mainquantity: z.preprocess(blankToUndefined, wholeNumber(0, LIMITS.quantityMax, 'Main quantity')),
  minquantity: z.preprocess(blankToUndefined, wholeNumber(1, LIMITS.quantityMax, 'Min buy quantity')),
  brandname: requiredText('Brand', LIMITS.brandMax),
  category: categorySchema,
  Content: optionalText('Content', LIMITS.contentMax),
  discount: z.preprocess(blankToUndefined, wholeNumber(0, LIMITS.discountMax, 'Discount').optional()),
};

const priceSchema = wholeNumber(1, LIMITS.priceMax, 'Price');
const ratingSchema = wholeNumber(1, 5, 'Rating');

/** POST /api/addproduct. docs/product/rules.md: description, price, rating and Content are optional when adding. */
export const addProductInputSchema = z.object({
  ...baseProductFields,
  description: optionalText('Description', LIMITS.descriptionMax),
  price: z.preprocess(blankToUndefined, priceSchema.optional()),
  rating: z.preprocess(blankToUndefined, ratingSchema.optional()),
});
export type AddProductInput = z.infer<typeof addProductInputSchema>;

/** PUT /api/updateproduct/{id}. docs/product/rules.md: on update, description, price and rating are required too. */
export const updateProductInputSchema = z.object({
  ...baseProductFields,
  description: requiredText('Description', LIMITS.descriptionMax),
  price: z.preprocess(blankToUndefined, priceSchema),
  rating: z.preprocess(blankToUndefined, ratingSchema),
});
export type UpdateProductInput = z.infer<typeof updateProductInputSchema>;

/** PATCH /api/products/{id}: the owner's stock adjustment, a signed whole number. */
export const stockAdjustmentInputSchema = z.object({
  quantity: wholeNumber(-LIMITS.quantityMax, LIMITS.quantityMax, 'Quantity').refine((n) => n !== 0, 'Quantity must not be 0'),
});
export type StockAdjustmentInput = z.infer<typeof stockAdjustmentInputSchema>;

export const productIdSchema = z.uuid();

/** Query of every product list call: one bounded page, optionally filtered. */
export const productListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageMax).default(LIMITS.pageDefault),
  cursor: z.string().max(200).optional(),
  category: categorySchema.optional(),
  available: z.enum(['true', 'false']).optional(),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;

/**
 * A product as the API answers it, in the original app's field names (docs/product/api.md). The
 * server's response serialiser is compiled from this schema, so an answer can never carry a field
 * that is not listed here, and the OpenAPI description shows exactly these fields.
 */
export const productSchema = z.object({
  _id: z.string(),
  image: z.string(),
  image2: z.string().nullable().optional(),
  image3: z.string().nullable().optional(),
  name: z.string(),
  mainquantity: z.int().describe('Units in stock'),
  minquantity: z.int().describe('Minimum order quantity (MOQ)'),
  brandname: z.string(),
  category: z.string(),
  description: z.string().nullable(),
  price: z.number().nullable().describe('Whole dollars per unit; null until the seller sets one'),
  rating: z.int().nullable(),
  Content: z.string().nullable(),
  useremail: z.string().describe("The owner's email"),
  updatedby: z.string().nullable(),
  discount: z.int().describe('Whole percent off the price, 0 to 90'),
  createdAt: z.string().describe('ISO 8601 timestamp'),
});
export type Product = z.infer<typeof productSchema>;

export const productListSchema = z.array(productSchema);

/** DELETE /api/product/{id}. */
export const deletedProductSchema = z.object({ _id: z.string(), deleted: z.boolean() });
export type DeletedProduct = z.infer<typeof deletedProductSchema>;
