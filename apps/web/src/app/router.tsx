import { createBrowserRouter, Outlet } from 'react-router';
import { RootLayout } from './root-layout.tsx';
import { RequireAuth, RedirectIfSignedIn } from './route-guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** Every page is its own chunk, so the home page ships only the frame and itself. */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    children: [
      { index: true, lazy: () => import('../features/home/pages/home-page.tsx').then((m) => ({ Component: m.HomePage })) },
      {
        element: (
          <RedirectIfSignedIn>
            <Outlet />
          </RedirectIfSignedIn>
        ),
        children: [
          { path: 'login', lazy: () => import('../features/auth/pages/login-page.tsx').then((m) => ({ Component: m.LoginPage })) },
          { path: 'signup', lazy: () => import('../features/auth/pages/signup-page.tsx').then((m) => ({ Component: m.SignupPage })) },
        ],
      },
      {
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [
          { path: 'addproduct', lazy: () => import('../features/products/pages/add-product-page.tsx').then((m) => ({ Component: m.AddProductPage })) },
          { path: 'upadateprocuct/:id', lazy: () => import('../features/products/pages/update-product-page.tsx').then((m) => ({ Component: m.UpdateProductPage })) },
          { path: 'allproduct', lazy: () => import('../features/products/pages/all-products-page.tsx').then((m) => ({ Component: m.AllProductsPage })) },
          { path: 'product/:id', lazy: () => import('../features/products/pages/product-detail-page.tsx').then((m) => ({ Component: m.ProductDetailPage })) },
          { path: 'myproduct', lazy: () => import('../features/products/pages/my-products-page.tsx').then((m) => ({ Component: m.MyProductsPage })) },
          // Paths match case-insensitively, so this serves both /Categories and /categories.
          { path: 'Categories', lazy: () => import('../features/products/pages/categories-page.tsx').then((m) => ({ Component: m.CategoriesPage })) },
          { path: 'cart', lazy: () => import('../features/orders/pages/cart-page.tsx').then((m) => ({ Component: m.CartPage })) },
        ],
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
]);
