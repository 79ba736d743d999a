/**
 * The web app's pages, one entry each: the pattern the router matches (docs/product/screens.md's route table, with
 * its spelling /upadateprocuct/), and the page title (docs/product/screens.md). The router, the links
 * (`paths`, `hrefOf`) and the titles (`titleForPath`) all read this table, so none can drift.
 */
export const pages = {
  home: { pattern: '/', title: 'wholesale-platform' },
  login: { pattern: '/login', title: 'wholesale-platform-login' },
  signup: { pattern: '/signup', title: 'wholesale-platform-signup' },
  addProduct: { pattern: '/addproduct', title: 'wholesale-platform-Add Product' },
  updateProduct: { pattern: '/upadateprocuct/:id', title: 'wholesale-platform-Update Product' },
  allProducts: { pattern: '/allproduct', title: 'All Product' },
  product: { pattern: '/product/:id', title: 'wholesale-platform-Details' },
  myProducts: { pattern: '/myproduct', title: 'My Product' },
  // Matched in any letter case (as every page), so this serves /Categories and /categories.
  categories: { pattern: '/Categories', title: 'Categories' },
  cart: { pattern: '/cart', title: 'Cart' },
  // Search (docs/decisions/009-search.md); open to signed-out visitors.
  search: { pattern: '/search', title: 'wholesale-platform-Search' },
  // The order workflow (docs/decisions/013-order-workflow-screens.md): a buyer's order, a seller's desk.
  order: { pattern: '/orders/:id', title: 'wholesale-platform-Order' },
  sales: { pattern: '/sales', title: 'wholesale-platform-Sales' },
  // Business verification (docs/decisions/014-business-verification.md).
  business: { pattern: '/business', title: 'wholesale-platform-Business profile' },
  adminVerifications: { pattern: '/admin/verifications', title: 'wholesale-platform-Verification queue' },
  adminAudit: { pattern: '/admin/audit', title: 'wholesale-platform-Audit trail' },
  // Accounts (docs/decisions/015-account-trust.md): recovery by e-mail and the account's own settings.
  forgotPassword: { pattern: '/forgot-password', title: 'wholesale-platform-Forgot password' },
  resetPassword: { pattern: '/reset-password', title: 'wholesale-platform-Reset password' },
  settings: { pattern: '/settings', title: 'wholesale-platform-Account settings' },
  // The cart's companions (docs/decisions/017-cart-and-checkout.md).
  quickOrder: { pattern: '/quick-order', title: 'wholesale-platform-Quick order' },
  lists: { pattern: '/lists', title: 'wholesale-platform-Order lists' },
  sellerSettings: { pattern: '/seller/settings', title: 'wholesale-platform-Seller settings' },
  // The seller's dashboard (docs/decisions/019-seller-dashboard.md).
  dashboard: { pattern: '/dashboard', title: 'wholesale-platform-Dashboard' },
  // Catalog CSV import (docs/decisions/018-catalog-import.md), reached from My Product.
  catalogImport: { pattern: '/myproduct/import', title: 'wholesale-platform-Import products' },
} as const satisfies Record<string, { pattern: string; title: string }>;

export type PageName = keyof typeof pages;
export const NOT_FOUND_TITLE = 'Not Found Page';

/** The `:name` parts of a pattern, as a union of their names. */
export type PatternParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PatternParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsArgument<N extends PageName> = [PatternParams<(typeof pages)[N]['pattern']>] extends [never]
  ? []
  : [params: Record<PatternParams<(typeof pages)[N]['pattern']>, string>];

/** The href of a page, its `:name` parts filled in (encoded). */
export function hrefOf<N extends PageName>(name: N, ...[params]: ParamsArgument<N>): string {
  const values: Record<string, string> = params ?? {};
  return pages[name].pattern.replace(/:(\w+)/g, (_part, key: string) => encodeURIComponent(values[key] ?? ''));
}

/**
 * A pattern as the router matches it: any letter case, one optional trailing slash, `:name` for one
 * non-empty segment. The web router is given this parser, so titles and preloads match as it does.
 */
export function parsePattern(pattern: string): { pattern: RegExp; keys: string[] } {
  const keys: string[] = [];
  const source = pattern
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      keys.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`, 'i'), keys };
}

/** The params of `pathname` when it matches `pattern`, else null. */
export function matchPattern(pattern: string, pathname: string): Record<string, string> | null {
  const { pattern: regexp, keys } = parsePattern(pattern);
  const match = regexp.exec(pathname);
  if (!match) return null;
  return Object.fromEntries(keys.map((key, index) => [key, decodeSegment(match[index + 1] ?? '')]));
}

/** A malformed escape (`%E0`) stays as typed rather than throwing during a render. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Links by page; the two with an id are functions. `categoriesLink` is the navbar's lower-case spelling. */
export const paths = {
  home: hrefOf('home'),
  login: hrefOf('login'),
  signup: hrefOf('signup'),
  addProduct: hrefOf('addProduct'),
  updateProduct: (id: string) => hrefOf('updateProduct', { id }),
  allProducts: hrefOf('allProducts'),
  product: (id: string) => hrefOf('product', { id }),
  cart: hrefOf('cart'),
  myProducts: hrefOf('myProducts'),
  categories: hrefOf('categories'),
  categoriesLink: '/categories',
  order: (id: string) => hrefOf('order', { id }),
  sales: hrefOf('sales'),
  business: hrefOf('business'),
  adminVerifications: hrefOf('adminVerifications'),
  adminAudit: hrefOf('adminAudit'),
  forgotPassword: hrefOf('forgotPassword'),
  resetPassword: hrefOf('resetPassword'),
  settings: hrefOf('settings'),
  quickOrder: hrefOf('quickOrder'),
  lists: hrefOf('lists'),
  sellerSettings: hrefOf('sellerSettings'),
  dashboard: hrefOf('dashboard'),
  catalogImport: hrefOf('catalogImport'),
} as const;

/** The title of the page at `pathname` (docs/product/screens.md), matched as the router matches it. */
export function titleForPath(pathname: string): string {
  for (const page of Object.values(pages)) {
    if (matchPattern(page.pattern, pathname)) return page.title;
  }
  return NOT_FOUND_TITLE;
}
