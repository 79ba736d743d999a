import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { titleForPath } from '@bulkcart/contracts/routes';
import { Navbar } from './navbar.tsx';
import { Footer } from './footer.tsx';
import { Spinner } from '../components/spinner.tsx';
import { NoticeHost } from '../components/notice.tsx';
import { useMe } from '../features/auth/api/get-me.ts';

/** Title by path and scroll-to-top on every navigation (spec §2, shared page frame). */
function usePathEffects() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = titleForPath(pathname);
    window.scrollTo(0, 0);
  }, [pathname]);
}

export function RootLayout() {
  usePathEffects();
  const me = useMe();
  return (
    <div className="flex min-h-screen flex-col bg-base-200/40">
      <Navbar />
      <main id="content" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
        {me.isPending ? (
          <Spinner fullHeight label="Loading your account" />
        ) : (
          <Suspense fallback={<Spinner fullHeight />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <Footer />
      <NoticeHost />
    </div>
  );
}
