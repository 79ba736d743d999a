import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './lib/router.tsx';
import { AppRoutes, preloadPage } from './app/router.tsx';
import { loadMe } from './lib/auth/me.ts';
import './index.css';

// The CSP forbids eval. Zod's compiled parsers need it, and its probe for it (on the first schema a
// form chunk builds) reports a CSP violation even though the failure is caught: tell it not to try.
// This is z.config({ jitless: true }) without loading zod here; zod keeps its config on this global.
const zodConfigHolder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(zodConfigHolder.__zod_globalConfig ??= {}).jitless = true;

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// The session check (index.html's preload is already asking; this takes its answer), the page's code
// and its first API request all start now, side by side.
void loadMe();
preloadPage(window.location);

// A link shows the new page at once (its spinner while its code loads), scrolled to the top: wouter
// updates the location synchronously, so the old page never stays on screen under the new URL.
createRoot(root).render(
  <StrictMode>
    <AppRouter>
      <AppRoutes />
    </AppRouter>
  </StrictMode>,
);
