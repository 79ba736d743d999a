import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCallback } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/**
 * React Router 7 ships one build, with top-level `X.displayName = "…"` lines and un-annotated
 * `React.forwardRef`/`createContext` calls. The bundler must keep those as side effects, and with them
 * Form, ScrollRestoration, the fetchers and everything they use, whether the app imports them or not.
 * Dropping the DevTools-only names and marking the calls pure lets unused parts fall away (decision 005).
 */
function treeShakeReactRouter(): Plugin {
  return {
    name: 'bulkcart:tree-shake-react-router',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/].*\.mjs$/ },
      handler(code) {
        return code
          .replace(/^\w+\.displayName = "[^"\n]*";$/gm, '')
          .replace(/^(var \w+ = )(React\d*\.(?:forwardRef|createContext|memo)\()/gm, '$1/* @__PURE__ */ $2');
      },
    },
  };
}

const SRC_DIR = fileURLToPath(new URL('./src/', import.meta.url));
const ROUTER_SUBSTITUTE = path.join(SRC_DIR, 'lib', 'react-router.ts');
const ROUTER_LINKS = path.join(SRC_DIR, 'lib', 'router-link.tsx');

/**
 * The app's `react-router` imports resolve to src/lib/react-router.ts: the library with lighter <Link>
 * and <NavLink> (router-link.tsx). The library's pair always bundles framework-mode page prefetching
 * this declarative app never uses, ~2.5 KB gzip on every page (decision 005). Those two files, and
 * anything outside src, get the library itself.
 */
function slimRouterLinks(): Plugin {
  return {
    name: 'bulkcart:slim-router-links',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'react-router' || !importer) return null;
      const from = importer.split('?')[0] ?? importer;
      if (!from.startsWith(SRC_DIR) || from === ROUTER_SUBSTITUTE || from === ROUTER_LINKS) return null;
      return ROUTER_SUBSTITUTE;
    },
  };
}

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt)$/;

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) next to every text file of the build, once the files
 * are final. The server sends them as they are (@fastify/static preCompressed) instead of compressing
 * each answer on the fly at brotli quality 4.
 */
function precompressAssets(): Plugin {
  return {
    name: 'bulkcart:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((fileName) => COMPRESSIBLE.test(fileName));
      await Promise.all(
        files.map(async (fileName) => {
          const file = path.join(outDir, fileName);
          const bytes = await readFile(file);
          if (bytes.length < 1024) return;
          const brotliParams = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
          await writeFile(`${file}.br`, await brotli(bytes, { params: brotliParams }));
          await writeFile(`${file}.gz`, await gzip(bytes, { level: 9 }));
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [slimRouterLinks(), react(), tailwindcss(), treeShakeReactRouter(), precompressAssets()],
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    cssCodeSplit: true,
    // Every browser this app supports has <link rel="modulepreload">; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    // Inline nothing as data: URIs: the CSP allows images only from this origin and https.
    assetsInlineLimit: 0,
    rolldownOptions: {
      // Brotli at quality 11 (precompressAssets) is slow by design; do not warn about its time.
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          // What every page runs first (React, the router, the frame) travels as one file: one request,
          // and one gzip stream compresses better than several small ones.
          groups: [
            { name: 'frame', tags: ['$initial'] },
            // TanStack Query and the form stack come whole with the pages that use them, as one file each
            // rather than a handful of small shared chunks that each cost a request.
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]|src[\\/]lib[\\/](?:query-client|query-provider|loaded-query-client)\.tsx?$/ },
            { name: 'forms', test: /node_modules[\\/](?:zod|react-hook-form|@hookform)[\\/]/ },
          ],
        },
      },
    },
  },
});
