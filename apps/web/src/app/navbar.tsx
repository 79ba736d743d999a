import { Suspense, type ReactNode } from 'react';
import { NavLink, Link } from '@/lib/router.tsx';
import { paths } from '@bulkcart/contracts/routes';
import { useMe } from '@/lib/auth/me.ts';
import { lazyPage } from '@/lib/lazy-page.ts';
import { SearchBox } from './search-box.tsx';
import { useDisclosure } from '@/lib/use-disclosure.ts';

// Only a signed-in user has the avatar menu (and its Logout); a visitor's first page goes without it.
const UserMenu = lazyPage(() => import('@/features/auth/components/user-menu.tsx').then((m) => m.UserMenu));
// The bell, with TanStack Query and its polling, likewise loads only for a signed-in user (decision 013).
const NotificationBell = lazyPage(() => import('@/features/notifications/components/notification-bell.tsx').then((m) => m.NotificationBell));
// The cart's line count beside Cart, signed in only, likewise lazy (decision 015).
const CartCount = lazyPage(() => import('@/features/orders/components/cart-count.tsx').then((m) => m.CartCount));

interface NavItem {
  to: string;
  label: string;
  badge?: ReactNode;
}

const everyone: NavItem[] = [
  { to: paths.home, label: 'Home' },
  { to: paths.categoriesLink, label: 'Categories' },
  { to: paths.cart, label: 'Cart' },
];
const signedOut: NavItem[] = [
  { to: paths.login, label: 'Login' },
  { to: paths.signup, label: 'Sign Up' },
];
const signedIn: NavItem[] = [
  { to: paths.allProducts, label: 'All Product' },
  { to: paths.addProduct, label: 'Add Product' },
  { to: paths.myProducts, label: 'My Product' },
  { to: paths.sales, label: 'Order Desk' },
];

function NavLinks({ items }: { items: NavItem[] }) {
  return items.map((item) => (
    <li key={item.to}>
      <NavLink to={item.to} end={item.to === '/'} className={({ isActive }) => (isActive ? 'menu-active font-semibold' : '')}>
        {item.label}
        {item.badge}
      </NavLink>
    </li>
  ));
}

/**
 * The first thing Tab reaches: straight to the page's content, past the header's links. Shown only
 * while focused. The focus moves to <main> itself, so the next Tab continues from there.
 */
function SkipLink() {
  return (
    <a
      href="#content"
      className="btn btn-primary btn-sm sr-only focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:z-50"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById('content')?.focus();
      }}
    >
      Skip to content
    </a>
  );
}

const cartCount = (
  <Suspense fallback={null}>
    <CartCount />
  </Suspense>
);

export function Navbar() {
  const me = useMe();
  const user = me.data?.user ?? null;
  const common = user ? everyone.map((item) => (item.to === paths.cart ? { ...item, badge: cartCount } : item)) : everyone;
  // The dashboard is for sellers: anyone with products or sales (decision 019).
  const mine = me.data?.seller ? [...signedIn, { to: paths.dashboard, label: 'Dashboard' }] : signedIn;
  const items = [...common, ...(me.isPending ? [] : user ? mine : signedOut)];
  const phoneMenu = useDisclosure();
  return (
    <header className="navbar sticky top-0 z-40 bg-base-100/95 shadow-sm backdrop-blur">
      <SkipLink />
      <div className="navbar-start">
        <div {...phoneMenu.rootProps} className={phoneMenu.isOpen ? 'dropdown dropdown-open' : 'dropdown'}>
          <button {...phoneMenu.buttonProps} className="btn btn-ghost lg:hidden" aria-label="Open menu">
            <svg xmlns="http://www.w3.org/2000/svg" className="h-5 w-5" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
              <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </button>
          {phoneMenu.isOpen ? (
            // A chosen link closes the menu, the current page's link included.
            <ul
              {...phoneMenu.panelProps}
              className="menu dropdown-content z-50 mt-3 w-52 rounded-box bg-base-100 p-2 shadow-lg"
              onClick={() => phoneMenu.close()}
            >
              <NavLinks items={items} />
            </ul>
          ) : null}
        </div>
        <Link to="/" className="btn btn-ghost gap-0 text-xl font-bold text-primary">
          Bulk<span className="text-accent">Cart</span>
        </Link>
      </div>
      <nav aria-label="Main" className="navbar-center hidden lg:flex">
        <ul className="menu menu-horizontal gap-1 px-1">
          <NavLinks items={items} />
        </ul>
      </nav>
      <div className="navbar-end gap-1">
        <SearchBox />
        {user ? (
          <>
            <Suspense fallback={<span className="h-10 w-10" aria-hidden="true" />}>
              <NotificationBell />
            </Suspense>
            <Suspense fallback={<span className="h-10 w-10" aria-hidden="true" />}>
              <UserMenu user={user} />
            </Suspense>
          </>
        ) : null}
      </div>
    </header>
  );
}
