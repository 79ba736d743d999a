import { isCategory } from '@bulkcart/contracts/categories';
import { readSelectedCategory } from '@/lib/selected-category.ts';
import { productsPath } from '@/features/products/api/products-path.ts';
import { dashboardPath, dashboardPeriodOf } from '@/features/dashboard/api/dashboard-path.ts';
import { firstSearchApiPath } from '@/features/products/lib/search-api-path.ts';

/**
 * The API path a page asks for first, worked out from its URL exactly as the page does, so the
 * request can start with the page's code instead of after it (lib/api-client.ts fetchEarly). The
 * catalog paths come from the pages' own builder; if a choice below (which filter the URL means)
 * drifts from its page, the cost is one wasted request: the page then asks for its own path.
 */
export type FirstRequest = (params: Record<string, string | undefined>, search: URLSearchParams) => string;

/** features/products/pages/all-products-page.tsx: ?available=true filters on the server. */
export const allProductsRequest: FirstRequest = (_params, search) => productsPath(search.get('available') === 'true' ? { available: true } : {}, null);

/** features/products/pages/categories-page.tsx: ?category= wins, else the category picked on the home page. */
export const categoriesRequest: FirstRequest = (_params, search) => {
  const fromUrl = search.get('category');
  const shared = readSelectedCategory();
  const category = isCategory(fromUrl) ? fromUrl : isCategory(shared) ? shared : null;
  return productsPath(category ? { category } : {}, null);
};

/** features/products/pages/product-detail-page.tsx. */
export const productRequest: FirstRequest = (params) => `/product/${encodeURIComponent(params.id ?? '')}`;

/** features/dashboard/pages/dashboard-page.tsx: ?period=, else 30 days. */
export const dashboardRequest: FirstRequest = (_params, search) => dashboardPath(dashboardPeriodOf(search.get('period')));

/** features/products/pages/search-page.tsx: the URL's choices as typed (features/products/lib/search-api-path.ts). */
export const searchRequest: FirstRequest = (_params, search) => firstSearchApiPath(search);
