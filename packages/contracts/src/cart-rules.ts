/**
 * The cart's rules and texts without zod (docs/decisions/017-cart-and-checkout.md): a buyer's page that
 * only shows a cart line or a quantity stepper imports these, and loads no schema library for them.
 * cart.ts re-exports them beside the schemas, so the server sees one module.
 */

/** The cart's bounds (docs/decisions/017-cart-and-checkout.md). */
export const CART_LIMITS = {
  /** Lines in one cart, and in one saved list. */
  lines: 200,
  /** Rows in one POST /api/cart/lines (pasted text or `lines`). */
  rows: 500,
  /** Units on one cart line. */
  quantityMax: 1_000_000,
  /** Characters of pasted text: 500 rows of a 64-character SKU and a quantity fit with room to spare. */
  textMax: 50_000,
  poNumberMax: 40,
  /** Saved lists per buyer: all of them answer in one GET /api/lists. */
  lists: 20,
  listNameMax: 80,
} as const;

/** A pasted row as the server reads it: `SKU quantity`, split on spaces, tabs, commas or semicolons. */
export interface PastedRow {
  row: number;
  sku: string;
  quantity: string;
}

/**
 * The rows of pasted text, numbered by their line in the paste (blank lines are skipped but counted,
 * so row 7 is the seventh line the buyer sees). A line that does not split into two parts keeps what
 * it has; the server answers it as an error.
 */
export function splitPastedRows(text: string): PastedRow[] {
  const rows: PastedRow[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    const parts = line
      .trim()
      .split(/[\s,;]+/)
      .filter(Boolean);
    if (parts.length === 0) return;
    rows.push({ row: index + 1, sku: parts[0] ?? '', quantity: parts.length === 2 ? (parts[1] ?? '') : parts.slice(1).join(' ') });
  });
  return rows;
}

/** Why a line cannot be bought as it stands (or, for price_changed, what changed since it was added). */
export const CART_PROBLEM_CODES = ['deleted', 'unpriced', 'own_product', 'sold_out', 'below_moq', 'not_whole_cases', 'short', 'price_changed'] as const;
export type CartProblemCode = (typeof CART_PROBLEM_CODES)[number];

/** Texts of the cart and checkout the server answers and the browser shows. */
export const CART_TEXT = {
  pricesChangedTitle: 'Prices changed',
  cartFull: `Your cart is full: it holds at most ${CART_LIMITS.lines} lines.`,
  listFull: `This list is full: it holds at most ${CART_LIMITS.lines} lines.`,
  tooManyLists: `You can keep at most ${CART_LIMITS.lists} lists; delete one first.`,
  noLongerSold: 'This product is no longer sold.',
  cartEmpty: 'Your cart is empty.',
  minimumOrder: (amount: string) => `Minimum order from this seller: ${amount}`,
  addMore: (amount: string, sellerName: string) => `Add ${amount} more from ${sellerName} to check out`,
} as const;

/**
 * A typed cart quantity made valid: a whole number of cases, at least the MOQ, at most the line's
 * bound (the steppers and the quick order rows; the server refuses anything else).
 */
export function validCartQuantity(value: number, minquantity: number, casepack: number): number {
  const whole = Number.isFinite(value) ? Math.trunc(value) : minquantity;
  const cases = Math.ceil(Math.max(whole, minquantity, 1) / casepack) * casepack;
  return Math.min(cases, Math.floor(CART_LIMITS.quantityMax / casepack) * casepack);
}
