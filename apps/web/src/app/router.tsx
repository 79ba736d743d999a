import { matchPath, useRoutes, type RouteObject } from 'react-router';
import { fetchEarly } from '../lib/api-client.ts';
import { lazyPage, type PreloadableComponent } from '../lib/lazy-page.ts';
import { allProductsRequest, categoriesRequest, productRequest, type FirstRequest } from './first-requests.ts';
import { RootLayout } from './root-layout.tsx';

/**
 * Declarative routes (decision 005): React Router's data router would add ~17 KB gzip to every page
 * for loaders and actions this app does not use. Every page is its own chunk, so the home page ships
 * only the frame and itself; the guards and TanStack Query come with the pages that use them (the
 * signed-in and signed-out layouts).
 */
const NotFoundPage = lazyPage(() => import('./not-found-page.tsx').then((m) => m.NotFoundPage));
const SignedInLayout = lazyPage(() => import('./signed-in-layout.tsx').then((m) => m.SignedInLayout));
const SignedOutLayout = lazyPage(() => import('./signed-out-layout.tsx').then((m) => m.SignedOutLayout));
const HomePage = lazyPage(() => import('../features/home/pages/home-page.tsx').then((m) => m.HomePage));
const LoginPage = lazyPage(() => import('../features/auth/pages/login-page.tsx').then((m) => m.LoginPage));
const SignupPage = lazyPage(() => import('../features/auth/pages/signup-page.tsx').then((m) => m.SignupPage));
const AddProductPage = lazyPage(() => import('../features/products/pages/add-product-page.tsx').then((m) => m.AddProductPage));
const UpdateProductPage = lazyPage(() => import('../features/products/pages/update-product-page.tsx').then((m) => m.UpdateProductPage));
const AllProductsPage = lazyPage(() => import('../features/products/pages/all-products-page.tsx').then((m) => m.AllProductsPage));
const ProductDetailPage = lazyPage(() => import('../features/products/pages/product-detail-page.tsx').then((m) => m.ProductDetailPage));
const MyProductsPage = lazyPage(() => import('../features/products/pages/my-products-page.tsx').then((m) => m.MyProductsPage));
const CategoriesPage = lazyPage(() => import('../features/products/pages/categories-page.tsx').then((m) => m.CategoriesPage));
const CartPage = lazyPage(() => import('../features/orders/pages/cart-page.tsx').then((m) => m.CartPage));

interface PageRoute {
  path: string;
  page: PreloadableComponent<object>;
  /** The page's first API request, started early when the app opens on this page. */
  firstRequest?: FirstRequest;
}

const signedOutPages: PageRoute[] = [
  { path: 'login', page: LoginPage },
  { path: 'signup', page: SignupPage },
];
const signedInPages: PageRoute[] = [
  { path: 'addproduct', page: AddProductPage },
  { path: 'upadateprocuct/:id', page: UpdateProductPage },
  { path: 'allproduct', page: AllProductsPage, firstRequest: allProductsRequest },
  { path: 'product/:id', page: ProductDetailPage, firstRequest: productRequest },
  { path: 'myproduct', page: MyProductsPage },
  // Paths match case-insensitively (caseSensitive is off), so this serves /Categories and /categories.
  { path: 'Categories', page: CategoriesPage, firstRequest: categoriesRequest },
  { path: 'cart', page: CartPage },
];

function toRoutes(pages: PageRoute[]): RouteObject[] {
  return pages.map(({ path, page: Page }) => ({ path, element: <Page /> }));
}

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { element: <SignedOutLayout />, children: toRoutes(signedOutPages) },
      { element: <SignedInLayout />, children: toRoutes(signedInPages) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function AppRoutes() {
  return useRoutes(routes);
}

/**
 * When the app opens on a page: starts downloading its chunks and its layout's, and its first API
 * request, at once, instead of one after the other and after the session check that guards them.
 */
export function preloadPage({ pathname, search }: { pathname: string; search: string }): void {
  if (matchPath('/', pathname)) {
    void HomePage.preload();
    // features/home/api/get-top-products.ts asks for this path; the page waits for the session check.
    fetchEarly('/topproduct');
    return;
  }
  for (const [pages, layout] of [
    [signedOutPages, SignedOutLayout],
    [signedInPages, SignedInLayout],
  ] as const) {
    for (const route of pages) {
      const match = matchPath(`/${route.path}`, pathname);
      if (!match) continue;
      void layout.preload();
      void route.page.preload();
      if (route.firstRequest) fetchEarly(route.firstRequest(match.params, new URLSearchParams(search)));
      return;
    }
  }
}
