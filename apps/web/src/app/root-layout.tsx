import { Suspense, useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { titleForPath } from '@bulkcart/contracts/routes';
import { Navbar } from './navbar.tsx';
import { Footer } from './footer.tsx';
import { Spinner } from '../components/spinner.tsx';
import { NoticeHost } from '../components/notice.tsx';

/**
 * Title by path and scroll-to-top on every navigation (spec §2, shared page frame). A layout effect:
 * the new page is never painted at the old page's scroll position first.
 */
function usePathEffects() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    document.title = titleForPath(pathname);
    window.scrollTo(0, 0);
  }, [pathname]);
}

/**
 * The frame. Pages render without waiting for the session check: the home page does not need it,
 * and the guards (route-guards.tsx) wait for it where it matters.
 */
export function RootLayout() {
  usePathEffects();
  return (
    <div className="flex min-h-screen flex-col bg-base-200/40">
      <Navbar />
      {/* At least a screen tall (less the navbar), so the footer starts below the fold: a page that
          grows as its data arrives then never pushes a visible footer around (layout shift). */}
      <main id="content" className="mx-auto min-h-[calc(100vh-4rem)] w-full max-w-7xl flex-1 px-4 py-6">
        <Suspense fallback={<Spinner fullHeight />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <NoticeHost />
    </div>
  );
}
