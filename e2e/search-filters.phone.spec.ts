import { expect, test } from './support/fixtures.ts';

/** The search page's folded filter panel on a phone (Pixel 7, touch). */

test('Apply in the phone filter panel folds it away to show the results', async ({ page }) => {
  await page.goto('/search?q=gloves');
  await expect(page.getByRole('heading', { level: 1, name: 'Results for “gloves”' })).toBeVisible();
  const toggle = page.getByText('Filters', { exact: true });
  const minPrice = page.getByLabel('Minimum price');
  await expect(minPrice).toBeHidden();
  await toggle.tap();
  await expect(minPrice).toBeVisible();

  await minPrice.fill('5');
  await page.getByRole('button', { name: 'Apply' }).tap();
  await expect(page).toHaveURL(/minPrice=5/);
  await expect(minPrice).toBeHidden();
  await expect(toggle).toBeFocused();
  await expect(page.getByTestId('product-card').first()).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('search-filters-applied-390.png') });
});
