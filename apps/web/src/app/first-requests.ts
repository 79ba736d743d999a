import { isCategory } from '@bulkcart/contracts/categories';
import { readSelectedCategory } from '../lib/selected-category.ts';

/**
 * The API path a page asks for first, worked out from its URL exactly as the page does, so the
 * request can start with the page's code instead of after it (lib/api-client.ts fetchEarly). If a
 * page changes what it asks for and this is not updated, the cost is one wasted request, nothing
 * worse: the page then asks for its own path as usual.
 */
export type FirstRequest = (params: Record<string, string | undefined>, search: URLSearchParams) => string;

/** features/products/pages/all-products-page.tsx: ?available=true filters on the server. */
export const allProductsRequest: FirstRequest = (_params, search) => (search.get('available') === 'true' ? '/allproduct?available=true' : '/allproduct');

/** features/products/pages/categories-page.tsx: ?category= wins, else the category picked on the home page. */
export const categoriesRequest: FirstRequest = (_params, search) => {
  const fromUrl = search.get('category');
  const shared = readSelectedCategory();
  const category = isCategory(fromUrl) ? fromUrl : isCategory(shared) ? shared : null;
  return category ? `/allproduct?${new URLSearchParams({ category }).toString()}` : '/allproduct';
};

/** features/products/pages/product-detail-page.tsx. */
export const productRequest: FirstRequest = (params) => `/product/${encodeURIComponent(params.id ?? '')}`;
