import { lazy, Suspense, useLayoutEffect, type ReactNode } from 'react';
import { useLocation } from '@/lib/router.tsx';
import { matchPattern, pages, titleForPath } from '@bulkcart/contracts/routes';
import { Navbar } from './navbar.tsx';
import { Footer } from './footer.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { NoticeHost } from '@/components/notice.tsx';
import { useMe } from '@/lib/auth/me.ts';
import { BuyButtonContext } from '@/components/buy-button-slot.tsx';
import { BuyButton, type BuyButtonProps } from '@/features/orders/components/buy-button.tsx';
import { CartActionContext, type CartActionProps } from '@/components/cart-actions-slot.tsx';

/**
 * Title by path and scroll-to-top on every navigation (docs/product/screens.md, page frame). A layout effect:
 * the new page is never painted at the old page's scroll position first.
 */
function usePathEffects() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    document.title = titleForPath(pathname);
    window.scrollTo(0, 0);
  }, [pathname]);
}

// Its own chunk: most visitors never see it, and the home page's weight stays put (decision 005).
const VerifyBanner = lazy(() => import('./verify-banner.tsx').then((m) => ({ default: m.VerifyBanner })));
// Its own chunk too: only accounts that have not confirmed their address load it.
const ConfirmEmailBanner = lazy(() => import('./confirm-email-banner.tsx').then((m) => ({ default: m.ConfirmEmailBanner })));
const CATALOG_PAGES = [pages.home, pages.allProducts, pages.categories, pages.product, pages.search];
const DISMISSED_KEY = 'bulkcart.verify-banner-dismissed';

function wasDismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/** On catalog pages, a signed-in user the volume breaks do not apply to is invited to verify. */
function useShowsVerifyBanner(): boolean {
  const { pathname } = useLocation();
  const me = useMe().data;
  if (!me?.user || me.verification.breaksApply || me.verification.status === 'pending') return false;
  return CATALOG_PAGES.some((page) => matchPattern(page.pattern, pathname)) && !wasDismissed();
}

const renderBuyButton = (props: BuyButtonProps) => <BuyButton {...props} />;

// Add to cart and Add to list load with the first page that shows them (they bring TanStack along).
const CartActions = lazy(() => import('@/features/orders/components/cart-actions.tsx').then((m) => ({ default: m.CartActions })));
const renderCartAction = (props: CartActionProps) => (
  <Suspense fallback={null}>
    <CartActions {...props} />
  </Suspense>
);

/**
 * The frame. docs/product/screens.md: while the signed-in state is loading, a full-height spinner replaces the
 * content. It is short: index.html preloads /api/me, and each page's code and first request start
 * beside it (main.tsx, router.tsx preloadPage), so the wait overlaps the downloads rather than
 * following them. A failed check (after its retries) does not hold the page: the guards show its
 * error where being signed in matters.
 */
export function RootLayout({ children }: { children: ReactNode }) {
  usePathEffects();
  const me = useMe();
  const showsBanner = useShowsVerifyBanner();
  const unconfirmedEmail = me.data?.user && !me.data.user.emailVerified ? me.data.user.email : null;
  return (
    <div className="flex min-h-screen flex-col bg-base-200/40">
      <Navbar />
      {/* At least a screen tall (less the navbar), so the footer starts below the fold: a page that
          grows as its data arrives then never pushes a visible footer around (layout shift). */}
      <main id="content" tabIndex={-1} className="mx-auto min-h-[calc(100vh-4rem)] w-full max-w-7xl flex-1 px-4 py-6">
        {me.isPending ? (
          <Spinner fullHeight label="Loading your account" />
        ) : (
          <Suspense fallback={<Spinner fullHeight />}>
            {unconfirmedEmail ? (
              <Suspense fallback={null}>
                <ConfirmEmailBanner email={unconfirmedEmail} />
              </Suspense>
            ) : null}
            {showsBanner ? (
              <Suspense fallback={null}>
                <VerifyBanner dismissedKey={DISMISSED_KEY} />
              </Suspense>
            ) : null}
            <BuyButtonContext value={renderBuyButton}>
              <CartActionContext value={renderCartAction}>{children}</CartActionContext>
            </BuyButtonContext>
          </Suspense>
        )}
      </main>
      <Footer />
      <NoticeHost />
    </div>
  );
}
