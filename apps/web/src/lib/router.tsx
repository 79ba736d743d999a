import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { Link as WouterLink, Redirect, Router, useLocation as useWouterLocation, useSearch } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { parsePattern } from '@bulkcart/contracts/routes';

/**
 * The app's router: wouter (about 2.5 KB gzip, decision 006) behind the few hooks and components the
 * pages use, so that choice lives in this file. Patterns are matched by the contracts' parser, as the
 * page titles and the early preloads are: any letter case, one optional trailing slash.
 */
export { Route, Switch, useParams, useSearchParams } from 'wouter';

export function AppRouter({ children }: { children: ReactNode }) {
  return <Router parser={parsePattern}>{children}</Router>;
}

export interface AppLocation {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that led here carried (e.g. the page a sign-in returns to). */
  state: unknown;
}

/** Where the browser is. Subscribes through wouter, reads the URL as the address bar has it (not decoded). */
export function useLocation(): AppLocation {
  useWouterLocation();
  useSearch();
  const state: unknown = useHistoryState();
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state };
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  const [, navigate] = useWouterLocation();
  return navigate;
}

/** Goes to `to` once rendered (the guards' redirects). */
export function Navigate({ to, replace = false, state }: { to: string } & NavigateOptions) {
  return <Redirect to={to} replace={replace} state={state} />;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; replace?: boolean; state?: unknown };

/** A link within the app: a plain click navigates without a reload; modifier keys and other buttons stay the browser's. */
export function Link({ to, ...rest }: LinkProps) {
  return <WouterLink to={to} {...rest} />;
}

/** The current page is `to` or below it (`end`: exactly it), in any letter case, as the router matches. */
export function isActivePath(to: string, pathname: string, end: boolean): boolean {
  const target = to.toLowerCase().replace(/(.)\/+$/, '$1');
  const current = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  if (current === target) return true;
  return !end && target !== '/' && current.startsWith(`${target}/`);
}

type NavLinkProps = Omit<LinkProps, 'className'> & { end?: boolean; className?: (state: { isActive: boolean }) => string };

/** A navbar link: `aria-current="page"` and the active class on its page and below. */
export function NavLink({ to, end = false, className, ...rest }: NavLinkProps) {
  const isActive = isActivePath(to, useLocation().pathname, end);
  return <Link to={to} aria-current={isActive ? 'page' : undefined} className={className?.({ isActive })} {...rest} />;
}
