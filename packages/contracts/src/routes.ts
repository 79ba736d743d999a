/** Typed paths of the web app, as spec §2's route table spells them (including /upadateprocuct/). */
export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  addProduct: '/addproduct',
  updateProduct: (id: string) => `/upadateprocuct/${id}`,
  allProducts: '/allproduct',
  product: (id: string) => `/product/${id}`,
  cart: '/cart',
  myProducts: '/myproduct',
  categories: '/Categories',
  categoriesLink: '/categories',
} as const;

/** Page titles by path (decisions.md §1), matched as the router matches: any letter case, trailing slashes. */
export function titleForPath(pathname: string): string {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  const exact: Record<string, string> = {
    '/': 'wholesale-platform',
    '/allproduct': 'All Product',
    '/cart': 'Cart',
    '/myproduct': 'My Product',
    '/categories': 'Categories',
    '/login': 'wholesale-platform-login',
    '/signup': 'wholesale-platform-signup',
    '/addproduct': 'wholesale-platform-Add Product',
  };
  const title = exact[path];
  if (title) return title;
  if (/^\/upadateprocuct\/[^/]+$/.test(path)) return 'wholesale-platform-Update Product';
  if (/^\/product\/[^/]+$/.test(path)) return 'wholesale-platform-Details';
  return 'Not Found Page';
}
