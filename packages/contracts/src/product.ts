import { z } from 'zod';
import { cursorSchema } from './cursor.ts';
import { CATEGORIES } from './categories.ts';
import { LIMITS } from './limits.ts';
import { applyDiscount, hasAtMostTwoDecimals, toCents } from './money.ts';

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
  z.preprocess(blankToUndefined, z.string().trim().max(max, `${label} must be at most ${max} characters`).optional());

/**
 * What isSafeImageUrl accepts, as a pattern for the API description: every accepted value matches it
 * (a property test holds that); an https URL must also parse.
 */
export const IMAGE_URL_PATTERN = `^(?:[Hh][Tt][Tt][Pp][Ss]://[^\\s\\\\<>"'/?#\\x00-\\x1f\\x7f]|/(?!/))[^\\s\\\\<>"'\\x00-\\x1f\\x7f]*$`;

/**
 * Characters that never belong in a stored image URL: white space, quotes, angle brackets and
 * backslashes (how markup or another URL sneaks in), and control characters (which a URL parser
 * silently drops, so what is stored would not be what is shown).
 */
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const UNSAFE_URL_CHARACTERS = /[\s\\<>"'\x00-\x1f\x7f]/;

export function isSafeImageUrl(value: string): boolean {
  if (UNSAFE_URL_CHARACTERS.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  // Spelled out, so `https:host` and `https:/host` (which URL parsers fix up) are refused as written.
  if (!/^https:\/\/[^/?#]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * An image is an https URL or a path on this server. `javascript:`, `data:`, protocol-relative and
 * plain http URLs are refused: they are how stored content turns into script or mixed content.
 */
export const imageUrlSchema = z
  .string({ error: 'Image is required' })
  .trim()
  .min(1, 'Image is required')
  .max(LIMITS.imageUrlMax, 'Image URL is too long')
  .refine(isSafeImageUrl, 'Image must be an https URL or a path on this site (starting with /)')
  .meta({
    pattern: IMAGE_URL_PATTERN,
    description: 'An https URL (with a host) or a path on this site starting with a single /; no spaces, quotes, < > or backslashes',
  });

const optionalImage = z.preprocess(blankToUndefined, imageUrlSchema.optional());

/** Dollars with at most two decimals ($0.35 is a normal wholesale price); cents inside the server. */
const moneySchema = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0.01, `${label} must be at least $0.01`)
    .max(LIMITS.priceMax, `${label} must be at most $${LIMITS.priceMax.toLocaleString('en-US')}`)
    .refine(hasAtMostTwoDecimals, `${label} can have at most two decimals (cents)`);

const priceSchema = moneySchema('Price');
const ratingSchema = wholeNumber(1, 5, 'Rating');

/** One volume break as the API writes it: at `minquantity` units or more, `price` dollars each. */
export const priceBreakSchema = z.object({
  minquantity: z.preprocess(blankToUndefined, wholeNumber(2, LIMITS.quantityMax, 'Break quantity')),
  price: z.preprocess(blankToUndefined, moneySchema('Break price')),
});
export type PriceBreak = z.infer<typeof priceBreakSchema>;

const tiersSchema = z
  .array(priceBreakSchema, { error: 'Volume breaks must be a list' })
  .max(LIMITS.tiersMax, `At most ${LIMITS.tiersMax} volume breaks`)
  .optional();

const casepackSchema = z.preprocess(blankToUndefined, wholeNumber(1, LIMITS.casepackMax, 'Case pack').optional());

/** A seller's own product code: 1–64 letters, digits, `-`, `_`, `.` or `/`; unique per seller without case. */
const SKU_CHARACTERS = /^[A-Za-z0-9._/-]+$/;
export const skuSchema = z
  .string({ error: 'SKU must be text' })
  .trim()
  .min(1, 'SKU is required')
  .max(LIMITS.skuMax, `SKU must be at most ${LIMITS.skuMax} characters`)
  .regex(SKU_CHARACTERS, 'SKU may hold only letters, digits, "-", "_", "." and "/"');

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
  casepack: casepackSchema,
  tiers: tiersSchema,
  sku: z.preprocess(blankToUndefined, skuSchema.optional()),
};

interface LadderFields {
  price?: number | undefined;
  discount?: number | undefined;
  minquantity: number;
  casepack?: number | undefined;
  tiers?: PriceBreak[] | undefined;
}

/**
 * The rules that tie fields together, with each message on the field to fix (the form shows it
 * there; the API answers it as `fieldErrors["tiers.1.price"]`). A bigger order never costs more per
 * unit: thresholds rise above the minimum and prices fall below the base and each other.
 */
function checkLadder(product: LadderFields, ctx: z.RefinementCtx): void {
  const casepack = product.casepack ?? 1;
  if (product.minquantity % casepack !== 0) {
    ctx.addIssue({ code: 'custom', path: ['minquantity'], message: `Min buy quantity must be a multiple of the case pack (${casepack})` });
  }
  const tiers = product.tiers ?? [];
  if (tiers.length > 0 && product.price === undefined) {
    ctx.addIssue({ code: 'custom', path: ['price'], message: 'Set a price before adding volume breaks' });
  }
  tiers.forEach((tier, i) => {
    const previous = tiers[i - 1];
    const aboveQuantity = previous ? previous.minquantity : product.minquantity;
    if (tier.minquantity <= aboveQuantity) {
      ctx.addIssue({
        code: 'custom',
        path: ['tiers', i, 'minquantity'],
        message: previous
          ? `Must be more than the previous break (${previous.minquantity})`
          : `Must be more than the min buy quantity (${product.minquantity})`,
      });
    } else if (tier.minquantity % casepack !== 0) {
      ctx.addIssue({ code: 'custom', path: ['tiers', i, 'minquantity'], message: `Must be a multiple of the case pack (${casepack})` });
    }
    const belowPrice = previous ? previous.price : product.price;
    if (belowPrice !== undefined && tier.price >= belowPrice) {
      ctx.addIssue({
        code: 'custom',
        path: ['tiers', i, 'price'],
        message: previous ? `Must be less than the previous break's price ($${previous.price})` : `Must be less than the price ($${belowPrice})`,
      });
    }
  });
  // Every price is at least a cent; a discount can still take the cheapest one below it, and an order
  // of such a product would be charged nothing.
  const discount = product.discount ?? 0;
  if (product.price !== undefined && discount > 0) {
    const cheapestCents = Math.min(...[product.price, ...tiers.map((t) => t.price)].map(toCents));
    // A price below a cent is already refused on its own field.
    if (cheapestCents >= 1 && applyDiscount(cheapestCents, discount) < 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['discount'],
        message: `With ${discount}% off, the lowest unit price ($${(cheapestCents / 100).toFixed(2)}) comes to less than one cent: lower the discount or raise the price`,
      });
    }
  }
}

/** POST /api/addproduct. docs/product/rules.md: description, price, rating and Content are optional when adding. */
export const addProductInputSchema = z
  .object({
    ...baseProductFields,
    description: optionalText('Description', LIMITS.descriptionMax),
    price: z.preprocess(blankToUndefined, priceSchema.optional()),
    rating: z.preprocess(blankToUndefined, ratingSchema.optional()),
  })
  .superRefine(checkLadder);
export type AddProductInput = z.infer<typeof addProductInputSchema>;

/** PUT /api/updateproduct/{id}. docs/product/rules.md: on update, description, price and rating are required too. */
export const updateProductInputSchema = z
  .object({
    ...baseProductFields,
    description: requiredText('Description', LIMITS.descriptionMax),
    price: z.preprocess(blankToUndefined, priceSchema),
    rating: z.preprocess(blankToUndefined, ratingSchema),
  })
  .superRefine(checkLadder);
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
  cursor: z.optional(cursorSchema),
  category: categorySchema.optional(),
  available: z.enum(['true', 'false']).optional(),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;

/**
 * A listing's stock as its seller sees it on My Product: `sold_out` when the stock cannot fill one
 * minimum order (what buyers see as "Out of stock"), `low` when it fills fewer than
 * LOW_STOCK_MIN_ORDERS of them, else `in_stock`. The server filters by the same rule in SQL
 * (db/schema/catalog.ts stockStateSql), which an index is built on.
 */
export const STOCK_STATES = ['in_stock', 'low', 'sold_out'] as const;
export type StockState = (typeof STOCK_STATES)[number];
export const LOW_STOCK_MIN_ORDERS = 5;
export const STOCK_STATE_LABELS: Record<StockState, string> = { in_stock: 'In stock', low: 'Low', sold_out: 'Sold out' };

export function stockStateOf(product: { mainquantity: number; minquantity: number }): StockState {
  if (product.mainquantity < product.minquantity) return 'sold_out';
  return product.mainquantity < product.minquantity * LOW_STOCK_MIN_ORDERS ? 'low' : 'in_stock';
}

/** The longest search My Product takes. */
export const MY_PRODUCTS_SEARCH_MAX = 100;

/**
 * GET /api/products/{email}: one page of the seller's own products, newest first, with the catalog's
 * filters, and optionally only those matching `q` (words of the name, brand, category or description, each as a prefix, or the
 * start of the SKU) and of one stock state.
 */
export const myProductsQuerySchema = productListQuerySchema.extend({
  q: z
    .string()
    .trim()
    .max(MY_PRODUCTS_SEARCH_MAX, `q must be at most ${MY_PRODUCTS_SEARCH_MAX} characters`)
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .describe('Words of the name, brand, category or description (each a prefix), or the start of the SKU'),
  stock: z
    .enum(STOCK_STATES, { error: 'stock must be one of in_stock, low, sold_out' })
    .optional()
    .describe(`sold_out: stock below the min buy quantity; low: below ${LOW_STOCK_MIN_ORDERS} times it; in_stock: the rest`),
});
export type MyProductsQuery = z.infer<typeof myProductsQuerySchema>;

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
  price: z.number().nullable().describe('Dollars per unit, up to two decimals; null until the seller sets one'),
  rating: z.int().nullable(),
  Content: z.string().nullable(),
  useremail: z.string().describe("The owner's email"),
  updatedby: z.string().nullable(),
  discount: z.int().describe('Whole percent off the price, 0 to 90'),
  createdAt: z.string().describe('ISO 8601 timestamp'),
  casepack: z.int().describe('Sold in multiples of this many units (1: any quantity)'),
  tiers: z.array(priceBreakSchema).describe('Volume breaks, lowest quantity first; [] when none'),
  sku: z.string().nullable().describe("The seller's own product code, unique per seller (any case); null when none"),
  unlisted: z
    .boolean()
    .describe('Taken out of the catalog (kept for its orders): only its seller sees it, in My Product, and may list it again. Always false to buyers'),
});
export type Product = z.infer<typeof productSchema>;

export const productListSchema = z.array(productSchema);

/** DELETE /api/product/{id}. */
export const deletedProductSchema = z.object({ _id: z.string(), deleted: z.boolean() });
export type DeletedProduct = z.infer<typeof deletedProductSchema>;
