import type { ComponentType, ReactNode } from 'react';
import { matchPattern, pages } from '@bulkcart/contracts/routes';
import { Route, Switch } from '@/lib/router.tsx';
import { fetchEarly } from '@/lib/api-client.ts';
import { lazyPage, type PreloadableComponent } from '@/lib/lazy-page.ts';
import { allProductsRequest, categoriesRequest, dashboardRequest, productRequest, searchRequest, type FirstRequest } from './first-requests.ts';
import { RootLayout } from './root-layout.tsx';

/**
 * Every page is its own chunk, so the home page ships only the frame and itself; the guards and
 * TanStack Query come with the pages that use them (the signed-in and signed-out layouts, decision
 * 005). Patterns and titles come from one table (packages/contracts/src/routes.ts).
 */
const NotFoundPage = lazyPage(() => import('./not-found-page.tsx').then((m) => m.NotFoundPage));
const SignedInLayout = lazyPage(() => import('./signed-in-layout.tsx').then((m) => m.SignedInLayout));
const SignedOutLayout = lazyPage(() => import('./signed-out-layout.tsx').then((m) => m.SignedOutLayout));
const HomePage = lazyPage(() => import('@/features/home/pages/home-page.tsx').then((m) => m.HomePage));
const LoginPage = lazyPage(() => import('@/features/auth/pages/login-page.tsx').then((m) => m.LoginPage));
const SignupPage = lazyPage(() => import('@/features/auth/pages/signup-page.tsx').then((m) => m.SignupPage));
const ForgotPasswordPage = lazyPage(() => import('@/features/auth/pages/forgot-password-page.tsx').then((m) => m.ForgotPasswordPage));
const ResetPasswordPage = lazyPage(() => import('@/features/auth/pages/reset-password-page.tsx').then((m) => m.ResetPasswordPage));
const SettingsPage = lazyPage(() => import('@/features/accounts/pages/settings-page.tsx').then((m) => m.SettingsPage));
const OpenLayout = lazyPage(() => import('./open-layout.tsx').then((m) => m.OpenLayout));
const AddProductPage = lazyPage(() => import('@/features/products/pages/add-product-page.tsx').then((m) => m.AddProductPage));
const UpdateProductPage = lazyPage(() => import('@/features/products/pages/update-product-page.tsx').then((m) => m.UpdateProductPage));
const AllProductsPage = lazyPage(() => import('@/features/products/pages/all-products-page.tsx').then((m) => m.AllProductsPage));
const ProductDetailPage = lazyPage(() => import('@/features/products/pages/product-detail-page.tsx').then((m) => m.ProductDetailPage));
const MyProductsPage = lazyPage(() => import('@/features/products/pages/my-products-page.tsx').then((m) => m.MyProductsPage));
const CategoriesPage = lazyPage(() => import('@/features/products/pages/categories-page.tsx').then((m) => m.CategoriesPage));
// Search is open to signed-out visitors (docs/decisions/009-search.md): no guard, its own TanStack provider.
const SearchPage = lazyPage(() => import('@/features/products/pages/search-page.tsx').then((m) => m.SearchPage));
const BusinessPage = lazyPage(() => import('@/features/business/pages/business-page.tsx').then((m) => m.BusinessPage));
// Operators only: the chunk holds the guard with the page (app/operator-pages.tsx).
const VerificationsPage = lazyPage(() => import('./operator-pages.tsx').then((m) => m.OperatorVerificationsPage));
const AuditPage = lazyPage(() => import('./operator-pages.tsx').then((m) => m.OperatorAuditPage));
const CartPage = lazyPage(() => import('@/features/orders/pages/cart-page.tsx').then((m) => m.CartPage));
const OrderPage = lazyPage(() => import('@/features/orders/pages/order-page.tsx').then((m) => m.OrderPage));
const SalesPage = lazyPage(() => import('@/features/orders/pages/sales-page.tsx').then((m) => m.SalesPage));
const QuickOrderPage = lazyPage(() => import('@/features/orders/pages/quick-order-page.tsx').then((m) => m.QuickOrderPage));
const ListsPage = lazyPage(() => import('@/features/orders/pages/lists-page.tsx').then((m) => m.ListsPage));
const DashboardPage = lazyPage(() => import('@/features/dashboard/pages/dashboard-page.tsx').then((m) => m.DashboardPage));
const CatalogImportPage = lazyPage(() => import('@/features/catalog/pages/catalog-import-page.tsx').then((m) => m.CatalogImportPage));
const SellerSettingsPage = lazyPage(() => import('@/features/orders/pages/seller-settings-page.tsx').then((m) => m.SellerSettingsPage));

interface PageRoute {
  pattern: string;
  page: PreloadableComponent<object>;
  /** The page's first API request, started early when the app opens on this page. */
  firstRequest?: FirstRequest;
}

const signedOutPages: PageRoute[] = [
  { pattern: pages.login.pattern, page: LoginPage },
  { pattern: pages.signup.pattern, page: SignupPage },
];
// Recovery pages work signed in or out: a mailed link may be opened in a browser with another session.
const openPages: PageRoute[] = [
  { pattern: pages.forgotPassword.pattern, page: ForgotPasswordPage },
  { pattern: pages.resetPassword.pattern, page: ResetPasswordPage },
];
const signedInPages: PageRoute[] = [
  { pattern: pages.settings.pattern, page: SettingsPage },
  { pattern: pages.addProduct.pattern, page: AddProductPage },
  { pattern: pages.updateProduct.pattern, page: UpdateProductPage },
  { pattern: pages.allProducts.pattern, page: AllProductsPage, firstRequest: allProductsRequest },
  { pattern: pages.product.pattern, page: ProductDetailPage, firstRequest: productRequest },
  { pattern: pages.myProducts.pattern, page: MyProductsPage },
  { pattern: pages.categories.pattern, page: CategoriesPage, firstRequest: categoriesRequest },
  { pattern: pages.cart.pattern, page: CartPage },
  { pattern: pages.order.pattern, page: OrderPage },
  { pattern: pages.sales.pattern, page: SalesPage },
  { pattern: pages.quickOrder.pattern, page: QuickOrderPage },
  { pattern: pages.lists.pattern, page: ListsPage },
  { pattern: pages.sellerSettings.pattern, page: SellerSettingsPage },
  { pattern: pages.dashboard.pattern, page: DashboardPage, firstRequest: dashboardRequest },
  { pattern: pages.catalogImport.pattern, page: CatalogImportPage },
  { pattern: pages.business.pattern, page: BusinessPage },
  { pattern: pages.adminVerifications.pattern, page: VerificationsPage },
  { pattern: pages.adminAudit.pattern, page: AuditPage },
];

function toRoutes(routes: PageRoute[], Layout: ComponentType<{ children: ReactNode }>) {
  return routes.map(({ pattern, page: Page }) => (
    <Route key={pattern} path={pattern}>
      <Layout>
        <Page />
      </Layout>
    </Route>
  ));
}

/** Anything no page matches. */
const EVERY_PATH = /^/;

export function AppRoutes() {
  return (
    <RootLayout>
      <Switch>
        <Route path={pages.home.pattern}>
          <HomePage />
        </Route>
        <Route path={pages.search.pattern}>
          <SearchPage />
        </Route>
        {toRoutes(signedOutPages, SignedOutLayout)}
        {toRoutes(openPages, OpenLayout)}
        {toRoutes(signedInPages, SignedInLayout)}
        <Route path={EVERY_PATH}>
          <NotFoundPage />
        </Route>
      </Switch>
    </RootLayout>
  );
}

/**
 * When the app opens on a page: starts downloading its chunks and its layout's, and its first API
 * request, at once, instead of one after the other and after the session check that guards them.
 */
export function preloadPage({ pathname, search }: { pathname: string; search: string }): void {
  if (matchPattern(pages.home.pattern, pathname)) {
    void HomePage.preload();
    // features/home/api/get-top-products.ts asks for this path; the page waits for the session check.
    fetchEarly('/topproduct');
    return;
  }
  if (matchPattern(pages.search.pattern, pathname)) {
    void SearchPage.preload();
    fetchEarly(searchRequest({}, new URLSearchParams(search)));
    return;
  }
  for (const [routes, layout] of [
    [signedOutPages, SignedOutLayout],
    [openPages, OpenLayout],
    [signedInPages, SignedInLayout],
  ] as const) {
    for (const route of routes) {
      const params = matchPattern(route.pattern, pathname);
      if (!params) continue;
      void layout.preload();
      void route.page.preload();
      if (route.firstRequest) fetchEarly(route.firstRequest(params, new URLSearchParams(search)));
      return;
    }
  }
}
