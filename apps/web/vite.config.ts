import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCallback } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

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
  plugins: [react(), tailwindcss(), precompressAssets()],
  // `@/…` is apps/web/src (tsconfig.json `paths`): imports name where a module lives, not how far up it is.
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
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
            // zod apart from the form library: a page that only reads its URL with a shared schema (search)
            // loads the schemas, not react-hook-form. Its core (with zod/mini) apart from the classic API:
            // the search page's query is written with zod/mini and loads only the core (decision 031).
            { name: 'zod-core', test: /node_modules[\\/]zod[\\/]v4[\\/](?:core|mini)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'forms', test: /node_modules[\\/](?:react-hook-form|@hookform)[\\/]/ },
            // What every product card shows (its frame and photo, the buy button and the price), the home
            // page's cards included: one file.
            {
              name: 'buy',
              test: /src[\\/](?:features[\\/]orders[\\/]components[\\/]buy-button|components[\\/](?:price-tag|product-card-frame|product-image))\.tsx$|contracts[\\/]src[\\/]money\.ts$/,
            },
            // What a signed-in page's frame adds (the bell, the avatar menu, the cart count, the banners): one
            // file rather than a dozen of under a kilobyte, each a request on a slow phone. A group takes its
            // modules' own imports with it (the guards and the return path among them), so the sign-in page
            // loads this file too: 5 KB, against a dozen requests saved on every signed-in page.
            {
              name: 'signed-in',
              test: /src[\\/](?:app[\\/](?:signed-in-layout|confirm-email-banner|verify-banner)|features[\\/]auth[\\/](?:api[\\/]sign-out|components[\\/]user-menu)|features[\\/]notifications[\\/](?:api|components)[\\/][\w-]+|features[\\/]orders[\\/](?:components[\\/]cart-count|api[\\/](?:cart|order-keys|lists))|lib[\\/]auth[\\/]confirm-email|components[\\/]resend-confirmation-button)\.tsx?$/,
            },
            // The catalog's lists (All Product, Categories, search, a seller's own list): the paged card grid
            // with its cart actions, as one file.
            {
              name: 'catalog',
              test: /src[\\/](?:features[\\/]products[\\/](?:api[\\/](?:get-products|product-keys)|components[\\/](?:paged-products|product-card|product-card-grid|product-links))|components[\\/](?:paged-list-end|stock-flag|rating-stars|empty-state|load-error|modal)|features[\\/]orders[\\/]components[\\/](?:cart-actions|add-to-list-dialog))\.tsx?$|contracts[\\/]src[\\/]cart-rules\.ts$/,
            },
          ],
        },
      },
    },
  },
});
