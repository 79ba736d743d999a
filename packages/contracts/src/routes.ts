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

/** Page titles by path (decisions.md §1). */
export function titleForPath(pathname: string): string {
  const exact: Record<string, string> = {
    '/': 'wholesale-platform',
    '/allproduct': 'All Product',
    '/cart': 'Cart',
    '/myproduct': 'My Product',
    '/categories': 'Categories',
    '/Categories': 'Categories',
    '/login': 'wholesale-platform-login',
    '/signup': 'wholesale-platform-signup',
    '/addproduct': 'wholesale-platform-Add Product',
  };
  const title = exact[pathname];
  if (title) return title;
  if (pathname.startsWith('/upadateprocuct/')) return 'wholesale-platform-Update Product';
  if (pathname.startsWith('/product/')) return 'wholesale-platform-Details';
  return 'Not Found Page';
}
