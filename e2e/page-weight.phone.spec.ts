import { gzipSync } from 'node:zlib';
import { expect, test } from './support/fixtures.ts';

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
