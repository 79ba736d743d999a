import { forwardRef, type MouseEvent } from 'react';
import { useHref, useLinkClickHandler, useLocation, useResolvedPath, type LinkProps, type NavLinkProps, type To } from 'react-router';

/**
 * React Router's <Link> and <NavLink> for a declarative router, without the framework-mode page
 * prefetching (`prefetch`, `discover`) that the library's own pair always bundles (~2.5 KB gzip on
 * every page, decision 005). The app still imports both from 'react-router': the build swaps these in
 * (vite.config.ts, useSlimLinks), so behaviour follows the library's:
 * - a click is handled by React Router's own useLinkClickHandler (modifier keys, target, replace,
 *   state, relative), and `reloadDocument` or a URL on another origin is a plain link;
 * - <NavLink> is active on its path and below it (`end` for exact), case-insensitive unless
 *   `caseSensitive`, with `aria-current="page"` and the `active` class or the className/style/children
 *   functions, as the library does.
 * Not supported: `mask` in the shown href (the click still honours it) and view-transition state.
 */

const ABSOLUTE_URL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** A URL on another origin, which the router cannot navigate to; else null. */
function externalHref(to: To): string | null {
  if (typeof to !== 'string' || !ABSOLUTE_URL.test(to)) return null;
  try {
    const url = new URL(to, window.location.href);
    return url.origin === window.location.origin ? null : to;
  } catch {
    return to;
  }
}

/** An absolute URL on this origin is a path to the router. */
function toRouterTarget(to: To): To {
  if (typeof to !== 'string' || !ABSOLUTE_URL.test(to)) return to;
  const url = new URL(to, window.location.href);
  return `${url.pathname}${url.search}${url.hash}`;
}

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  {
    onClick,
    relative,
    reloadDocument,
    replace,
    state,
    target,
    to,
    preventScrollReset,
    viewTransition,
    mask,
    defaultShouldRevalidate,
    prefetch: _prefetch,
    discover: _discover,
    ...rest
  },
  ref,
) {
  const external = externalHref(to);
  const routerTo = external ? '/' : toRouterTarget(to);
  const href = useHref(routerTo, { relative });
  const handleRouterClick = useLinkClickHandler(routerTo, { target, replace, state, preventScrollReset, relative, viewTransition, mask, defaultShouldRevalidate });
  const isRouterLink = !external && !reloadDocument;

  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (!event.defaultPrevented) handleRouterClick(event);
  }

  return <a {...rest} ref={ref} href={external ?? href} target={target} onClick={isRouterLink ? handleClick : onClick} />;
});

export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink(
  { 'aria-current': ariaCurrent = 'page', caseSensitive = false, className = '', end = false, style, to, children, ...rest },
  ref,
) {
  const path = useResolvedPath(to, { relative: rest.relative });
  const location = useLocation();
  let toPathname = path.pathname;
  let locationPathname = location.pathname;
  if (!caseSensitive) {
    toPathname = toPathname.toLowerCase();
    locationPathname = locationPathname.toLowerCase();
  }
  const endSlashPosition = toPathname !== '/' && toPathname.endsWith('/') ? toPathname.length - 1 : toPathname.length;
  const isActive =
    locationPathname === toPathname || (!end && locationPathname.startsWith(toPathname) && locationPathname.charAt(endSlashPosition) === '/');
  // Pending and transitioning states exist only under a data router.
  const renderProps = { isActive, isPending: false, isTransitioning: false };

  return (
    <Link
      {...rest}
      ref={ref}
      to={to}
      aria-current={isActive ? ariaCurrent : undefined}
      className={typeof className === 'function' ? className(renderProps) : [className, isActive ? 'active' : null].filter(Boolean).join(' ')}
      style={typeof style === 'function' ? style(renderProps) : style}
    >
      {typeof children === 'function' ? children(renderProps) : children}
    </Link>
  );
});
