import { expect, test } from './support/fixtures.ts';
import { addProduct } from './support/shop-api.ts';

/**
 * Search (docs/decisions/009-search.md) as a signed-out visitor on the demo catalog: the navbar's combobox, the results
 * page, a facet, and a reload that keeps every choice.
 */

test('typing in the navbar box suggests, arrow keys and Enter open the results', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search products' });
  await box.click();
  await box.pressSequentially('stap', { delay: 30 });
  const listbox = page.getByRole('listbox', { name: 'Search suggestions' });
  await expect(listbox).toBeVisible();
  const first = listbox.getByRole('option').first();
  await expect(first).toHaveText('Stapler Heavy Duty');
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('status').filter({ hasText: /suggestions?; arrow keys/ })).toBeAttached();

  await box.press('ArrowDown');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id')) ?? 'missing');
  await box.press('Enter');

  await expect(page).toHaveURL(/\/search\?q=Stapler%20Heavy%20Duty$/);
  await expect(page).toHaveTitle('wholesale-platform-Search');
  const card = page.getByTestId('product-card').filter({ hasText: 'Stapler Heavy Duty' }).first();
  await expect(card).toBeVisible();
  await expect(card.locator('mark').first()).toHaveText('Stapler');
});

test('Escape closes the suggestions and keeps the text', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search products' });
  await box.click();
  await box.pressSequentially('glo', { delay: 30 });
  await expect(page.getByRole('listbox', { name: 'Search suggestions' })).toBeVisible();
  await box.press('Escape');
  await expect(page.getByRole('listbox', { name: 'Search suggestions' })).toBeHidden();
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(box).toHaveValue('glo');
});

test('words typed before the suggestions have loaded still get suggestions', async ({ page }) => {
  // The suggestions load on the box's first focus; a slow network lets the buyer type first.
  await page.route(/\/assets\/search-suggestions-[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search products' });
  await box.click();
  await box.pressSequentially('glo', { delay: 30 });
  await expect(page.getByRole('listbox', { name: 'Search suggestions' })).toBeVisible();
  await expect(page.getByRole('option').first()).toContainText(/glo/i);
});

test('a misspelt search finds the product, a facet narrows the results, a reload keeps them', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search products' });
  await box.fill('glovs');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=glovs$/);
  await expect(page.getByTestId('product-card').filter({ hasText: 'Safety Gloves Nitrile' })).toBeVisible();

  const filters = page.getByRole('complementary', { name: 'Filters' });
  const categories = filters.getByRole('group', { name: 'Category' });
  const firstFacet = categories.getByRole('checkbox').first();
  const facetLabel = categories.locator('label').first();
  const category = (await facetLabel.locator('span.grow').textContent()) ?? '';
  const count = Number(await facetLabel.locator('.badge').textContent());
  await firstFacet.check();
  await expect(page).toHaveURL(new RegExp(`category=${encodeURIComponent(category).replace(/%20/g, '\\+|%20').slice(0, 8)}`));
  await expect(page.getByText(new RegExp(`^${count} products?$`))).toBeVisible();
  const cards = page.getByTestId('product-card');
  await expect(cards).toHaveCount(Math.min(count, 12));
  for (const text of await page.getByTestId('product-category').allTextContents()) expect(text.toLowerCase()).toBe(category.toLowerCase());

  const url = page.url();
  const searchRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/search') searchRequests.push(request.url());
  });
  await page.reload();
  expect(page.url()).toBe(url);
  await expect(page.getByText(new RegExp(`^${count} products?$`))).toBeVisible();
  // The frame starts the first request before the page's code arrives; the page takes that answer.
  expect(searchRequests).toHaveLength(1);
  await expect(
    page.getByRole('complementary', { name: 'Filters' }).getByRole('group', { name: 'Category' }).getByRole('checkbox', { checked: true }),
  ).toHaveCount(1);
});

test('no match shows what to drop and popular categories', async ({ page }) => {
  await page.goto('/search?q=zzqqxxjj&inStock=true');
  await expect(page.getByRole('heading', { name: 'No products match “zzqqxxjj”' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove filter In stock' }).click();
  await expect(page).toHaveURL(/\/search\?q=zzqqxxjj$/);
  await page.getByRole('link', { name: 'Office Supplies & Stationery' }).click();
  await expect(page).toHaveURL(/category=Office/);
  await expect(page.getByTestId('product-card').first()).toBeVisible();
});

test('a typo that matches nothing offers the corrected words first, and choosing them searches those', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search products' });
  await box.click();
  await box.pressSequentially('stpaler', { delay: 30 });
  const listbox = page.getByRole('listbox', { name: 'Search suggestions' });
  const first = listbox.getByRole('option').first();
  await expect(first).toHaveText('Did you mean stapler?');
  await expect(listbox.getByRole('option').nth(1)).toHaveText('Stapler Heavy Duty');
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=stapler$/);
  await expect(page.getByTestId('product-card').filter({ hasText: 'Stapler Heavy Duty' }).first()).toBeVisible();
});

test('a long name with highlighted words wraps as one text on a phone, never clipped at the card edge', async ({ page, baseURL, signedInUser: _seller }) => {
  const name = `Industrial Wholesale Corrugated Shipping Cartons Extra Heavy Duty Double Wall ${Date.now()}`;
  await addProduct(page.request, baseURL!, { name });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/search?q=corrugated%20cartons%20wall');
  const title = page.getByTestId('product-card').filter({ hasText: name }).first().getByRole('heading', { name });
  await expect(title.locator('mark')).toHaveCount(3);
  const fit = await title.evaluate((h) => ({
    scroll: h.scrollWidth,
    client: h.clientWidth,
    lines: Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)),
  }));
  expect(fit.scroll).toBeLessThanOrEqual(fit.client);
  // As one text the 13 words fill a few lines; as squeezed flex columns they stack a word per line.
  expect(fit.lines).toBeLessThanOrEqual(5);
  await title.screenshot({ path: test.info().outputPath('long-highlighted-name-390.png') });
});
