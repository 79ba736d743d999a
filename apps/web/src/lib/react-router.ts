/**
 * What the app's `import … from 'react-router'` resolves to in the build (vite.config.ts,
 * slimRouterLinks): the library itself, with its <Link> and <NavLink> replaced by lighter ones of the
 * same behaviour (router-link.tsx, decision 005). Types still come from the library.
 */
export * from 'react-router';
export { Link, NavLink } from './router-link.tsx';
