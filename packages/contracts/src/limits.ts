/** Bounds the spec does not name but a real product needs (docs/decisions/003-catalog-api.md). */
export const LIMITS = {
  nameMax: 120,
  descriptionMax: 500,
  contentMax: 5000,
  brandMax: 80,
  imageUrlMax: 2048,
  quantityMax: 1_000_000_000,
  /** Dollars per unit; keeps price × 100 (cents) well inside a 32-bit column. */
  priceMax: 1_000_000,
  /** Volume price breaks per product. */
  tiersMax: 5,
  casepackMax: 100_000,
  discountMax: 90,
  pageDefault: 48,
  /**
   * The first page a catalog list asks for in the browser: a screenful on any device, so the first
   * render is short on a slow phone (docs/decisions/005-page-weight.md). Later pages, loaded on scroll, are pageDefault.
   */
  firstPage: 12,
  pageMax: 200,
  featuredCount: 8,
  /** Orders a seller may accept in one step on the desk (a page of placed orders and more). */
  bulkAcceptMax: 100,
  /** 'Show Available Products' keeps products whose minquantity is greater than this. */
  availableMoqAbove: 100,
  userNameMax: 100,
  passwordMax: 128,
} as const;
