/** The six category values of docs/product/rules.md, in the order the Categories dropdown lists them. */
export const CATEGORIES = [
  'Electronics & Gadgets',
  'Home & Kitchen Appliances',
  'Fashion & Apparel',
  'Industrial Machinery & Tools',
  'Health & Beauty',
  'Office Supplies & Stationery',
] as const;

export type Category = (typeof CATEGORIES)[number];

/** The five cards of the home page's 'Our Product Categories' section, in the spec's order. */
export const HOME_CATEGORY_CARDS: readonly Category[] = [
  'Fashion & Apparel',
  'Home & Kitchen Appliances',
  'Health & Beauty',
  'Office Supplies & Stationery',
  'Electronics & Gadgets',
];

export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value);
}
