import { z } from 'zod';
import { addressSchema } from './address.ts';
import { hasAtMostTwoDecimals } from './money.ts';
import { orderSchema } from './order.ts';
import { LIMITS } from './limits.ts';
import { CART_LIMITS, CART_PROBLEM_CODES } from './cart-rules.ts';

export * from './cart-rules.ts';

const SKU_MATCHES = 10;

const quantityMessage = `Quantity must be a whole number from 1 to ${CART_LIMITS.quantityMax.toLocaleString('en-US')}`;

/** A cart or list quantity: a whole number up to 1,000,000; `min` 0 where 0 means "remove". */
export function cartQuantitySchema(min: 0 | 1) {
  return z
    .number({ error: quantityMessage })
    .int(quantityMessage)
    .min(min, min === 0 ? 'Quantity must not be negative' : quantityMessage)
    .max(CART_LIMITS.quantityMax, quantityMessage);
}

/** PUT /api/cart/lines/{productId}: the line's new quantity; 0 removes it. */
export const setCartLineInputSchema = z.object({ quantity: cartQuantitySchema(0) });
export type SetCartLineInput = z.infer<typeof setCartLineInputSchema>;

/**
 * One row of POST /api/cart/lines. Rows are checked one by one (a bad row is answered in `results`,
 * the others are still added), so the row's own fields are only loosely typed here.
 */
export const cartAddRowSchema = z.object({
  productId: z.string().max(100).optional().describe('The product; or give `sku`'),
  sku: z.string().max(200).optional().describe("A seller's SKU, any case; ambiguous when several sellers use it"),
  quantity: z.unknown().describe(`Units, a whole number from 1 to ${CART_LIMITS.quantityMax}`),
});
export type CartAddRow = z.infer<typeof cartAddRowSchema>;

const tooManyRows = `At most ${CART_LIMITS.rows} rows at a time`;

/**
 * POST /api/cart/lines: rows to add, as a list or as text pasted from a spreadsheet (`SKU quantity` per
 * line): one of the two.
 */
export const addCartLinesInputSchema = z
  .object({
    lines: z.array(cartAddRowSchema).min(1, 'Add at least one row').max(CART_LIMITS.rows, tooManyRows).optional(),
    text: z
      .string({ error: 'Paste rows of SKU and quantity' })
      .max(CART_LIMITS.textMax, `Paste at most ${CART_LIMITS.textMax.toLocaleString('en-US')} characters (${CART_LIMITS.rows} rows) at a time`)
      .optional()
      .describe('One row per line: a SKU and a quantity, separated by spaces, tabs, commas or semicolons'),
  })
  .refine((input) => (input.lines === undefined) !== (input.text === undefined), 'Send `lines` or `text`');
export type AddCartLinesInput = z.infer<typeof addCartLinesInputSchema>;

/** A product a SKU could mean, when several sellers use it. */
export const skuCandidateSchema = z.object({ productId: z.string(), sellerName: z.string(), name: z.string() });
export type SkuCandidate = z.infer<typeof skuCandidateSchema>;

/** What became of one row of an add, a reorder or a list sent to the cart. */
export const cartAddResultSchema = z.object({
  row: z.int().describe('1-based: the row of `lines`, the line of the pasted text, or the line of the order or list'),
  status: z.enum(['added', 'error']),
  productId: z.string().optional(),
  sku: z.string().optional(),
  quantity: z.int().optional().describe('Units added on this row'),
  message: z.string().optional().describe('Why the row was not added'),
  candidates: z.array(skuCandidateSchema).optional().describe('For an ambiguous SKU: the products it may mean; send one `productId`'),
});
export type CartAddResult = z.infer<typeof cartAddResultSchema>;

export const cartAddAnswerSchema = z.object({ results: z.array(cartAddResultSchema) });
export type CartAddAnswer = z.infer<typeof cartAddAnswerSchema>;

export const cartProblemSchema = z.object({
  code: z.enum(CART_PROBLEM_CODES),
  message: z.string(),
  quantity: z.int().nullable().describe('The quantity that fixes the line (the available stock, the MOQ, whole cases); null when only removing it does'),
});
export type CartProblem = z.infer<typeof cartProblemSchema>;

export const cartLineSchema = z.object({
  productId: z.string(),
  sku: z.string().nullable(),
  name: z.string(),
  image: z.string(),
  sellerId: z.string().nullable(),
  sellerName: z.string(),
  quantity: z.int(),
  unitPrice: z.number().describe('Dollars the server would charge per unit now: the volume break reached, then the discount'),
  listUnitPrice: z.number().describe('The base price before any break or discount'),
  lineTotal: z.number().describe('unitPrice × quantity; 0 for a line that has no price (deleted, unpriced)'),
  minquantity: z.int().describe('The MOQ (1 once the product is gone)'),
  casepack: z.int().describe('Sold in multiples of this many units'),
  available: z.int().describe('Units in stock now (0 once the product is gone)'),
  problem: cartProblemSchema.nullable(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartSellerSchema = z.object({
  sellerId: z.string().nullable(),
  sellerName: z.string(),
  subtotal: z.number(),
  minimumOrder: z.number().nullable().describe("The seller's minimum order value in dollars; null when none"),
  shortBy: z.number().describe('Dollars still missing to reach the minimum; 0 when met'),
});
export type CartSeller = z.infer<typeof cartSellerSchema>;

/** GET /api/cart, and the answer of every change to it. */
export const cartSchema = z.object({
  lines: z.array(cartLineSchema),
  sellers: z.array(cartSellerSchema),
  total: z.number().describe('Dollars the checkout would charge now, the sum of the line totals'),
  count: z.int().describe('Lines in the cart'),
});
export type Cart = z.infer<typeof cartSchema>;

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** POST /api/checkout. */
export const checkoutInputSchema = z.object({
  shipTo: addressSchema.optional().describe("Where every order ships; the buyer's saved address when left out"),
  poNumber: z
    .preprocess(
      blankToUndefined,
      z.string().trim().max(CART_LIMITS.poNumberMax, `The PO number must be at most ${CART_LIMITS.poNumberMax} characters`).optional(),
    )
    .describe('The buyer’s purchase order number, kept on every order'),
  expectedTotal: z
    .number({ error: 'Send the total you were shown' })
    .min(0, 'Send the total you were shown')
    .refine(hasAtMostTwoDecimals, 'The total has at most two decimals')
    .describe('The total the buyer saw; any other total is a 409 "Prices changed"'),
});
export type CheckoutInput = z.infer<typeof checkoutInputSchema>;

export const checkoutAnswerSchema = z.object({ orders: z.array(orderSchema).describe('One order per seller') });
export type CheckoutAnswer = z.infer<typeof checkoutAnswerSchema>;

/** A saved list's name ("Monthly restock"). */
export const listNameSchema = z
  .string({ error: 'Name the list' })
  .trim()
  .min(1, 'Name the list')
  .max(CART_LIMITS.listNameMax, `A list name has at most ${CART_LIMITS.listNameMax} characters`);

/** POST /api/lists: a new list, empty or with lines (a product id and a quantity each). */
export const createListInputSchema = z.object({
  name: listNameSchema,
  lines: z
    .array(z.object({ productId: z.string().max(100), quantity: cartQuantitySchema(1) }))
    .max(CART_LIMITS.lines, `A list holds at most ${CART_LIMITS.lines} lines`)
    .optional(),
});
export type CreateListInput = z.infer<typeof createListInputSchema>;

/** PUT /api/lists/{id}/lines/{productId}: the line's quantity; 0 removes it. */
export const setListLineInputSchema = setCartLineInputSchema;

/** A saved list: its lines priced as they would be added to the cart now (problems included). */
export const savedListSchema = z.object({
  id: z.string(),
  name: z.string(),
  lines: z.array(cartLineSchema),
  createdAt: z.string().describe('ISO 8601 timestamp'),
});
export type SavedList = z.infer<typeof savedListSchema>;

export const savedListsSchema = z.array(savedListSchema);

/** GET /api/skus?q=: SKUs starting with `q` (any case), for quick order's typeahead and row checks. */
export const skuQuerySchema = z.object({
  q: z
    .string({ error: 'Type the start of a SKU' })
    .trim()
    .min(1, 'Type the start of a SKU')
    .max(LIMITS.skuMax, `A SKU has at most ${LIMITS.skuMax} characters`),
});

export const skuMatchSchema = z.object({
  productId: z.string(),
  sku: z.string(),
  name: z.string(),
  sellerName: z.string(),
  price: z.number().nullable().describe('The base price in dollars; null when the product has none'),
  minquantity: z.int(),
  casepack: z.int(),
  available: z.int().describe('Units in stock'),
});
export type SkuMatch = z.infer<typeof skuMatchSchema>;

export const skuMatchListSchema = z.array(skuMatchSchema).describe(`At most ${SKU_MATCHES} matches, exact ones first`);

export const SKU_MATCHES_MAX = SKU_MATCHES;
