import { gzipSync } from 'node:zlib';
import { expect, test } from './support/fixtures.ts';
import { productOfAnotherSeller } from './support/shop-api.ts';

/**
 * The byte budget (docs/decisions/005-page-weight.md) for the home page, guarded on every run (the timing half of the budget is a
 * benchmark, `npm run bench:web`). Units as the benchmark's: our files gzip -9, 1 KB = 1000 bytes.
 */
const HOME_JS_GZIP_BUDGET = 90_000;
const HOME_TRANSFER_BUDGET = 350_000;

test('the home page loads at most 90 KB of JavaScript (gzip -9) and transfers at most 350 KB in all', async ({ page }) => {
  const scripts = new Set<string>();
  const transfers: Promise<number>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') scripts.add(request.url());
    transfers.push(request.sizes().then((sizes) => sizes.responseHeadersSize + sizes.responseBodySize));
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Some Of Our Product', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');

  let jsGzip = 0;
  for (const url of scripts) {
    expect(new URL(url).origin, 'every script is our own').toBe(new URL(page.url()).origin);
    // The file itself, uncompressed, then gzip -9 here: what the server sends depends on Accept-Encoding.
    const response = await page.request.get(url, { headers: { 'accept-encoding': 'identity' } });
    jsGzip += gzipSync(await response.body(), { level: 9 }).length;
  }
  const transferred = (await Promise.all(transfers)).reduce((sum, bytes) => sum + bytes, 0);
  console.log(`home: ${scripts.size} scripts, ${(jsGzip / 1000).toFixed(1)} KB JS gzip; ${(transferred / 1000).toFixed(1)} KB transferred`);

  expect(scripts.size).toBeGreaterThan(0);
  expect(jsGzip, 'home JavaScript, gzip -9 bytes').toBeLessThanOrEqual(HOME_JS_GZIP_BUDGET);
  expect(transferred, 'home transfer, bytes').toBeLessThanOrEqual(HOME_TRANSFER_BUDGET);
});

/**
 * The schema library (zod) and the form library (react-hook-form) come with the pages that use them
 * (apps/web/vite.config.ts names their files): a buyer browsing a category and a product page loads
 * neither (the cart's rules and texts they show live in zod-free modules); the search page reads its
 * URL with the shared search schema, written with zod/mini, so it loads zod's core alone: neither zod's
 * classic API nor the form library (decision 031).
 */
test("a category and a product page load neither zod nor the form library; the search page loads zod's core alone", async ({
  page,
  signedInUser: _buyer,
  baseURL,
}) => {
  const product = await productOfAnotherSeller(baseURL!);
  const libraries = new Set<string>();
  page.on('requestfinished', (request) => {
    const name = /\/assets\/(zod-core|zod|forms)-[\w-]+\.js$/.exec(new URL(request.url()).pathname)?.[1];
    if (request.resourceType() === 'script' && name) libraries.add(name);
  });
  const loadedOn = async (path: string, shown: () => Promise<void>) => {
    libraries.clear();
    await page.goto(path);
    await shown();
    await page.waitForLoadState('networkidle');
    return [...libraries].sort();
  };

  expect(await loadedOn('/categories', () => expect(page.getByRole('heading', { name: 'Select From Our categories' })).toBeVisible())).toEqual([]);
  expect(await loadedOn(`/product/${product._id}`, () => expect(page.getByRole('heading', { name: product.name })).toBeVisible())).toEqual([]);
  expect(await loadedOn('/search?q=gloves', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible())).toEqual(['zod-core']);
});
