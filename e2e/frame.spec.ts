import { expect, test } from '@playwright/test';

test('the home page renders the frame with the current year', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('wholesale-platform');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of ['Home', 'Categories', 'Cart', 'Login', 'Sign Up']) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await expect(page.getByText('Providing reliable product since 2000')).toBeVisible();
  await expect(page.getByTestId('copyright')).toContainText(String(new Date().getFullYear()));
});

test('an unknown path shows the 404 page with its title', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found currently' })).toBeVisible();
  await expect(page.getByText("Sorry, we can't find such page.")).toBeVisible();
  await expect(page).toHaveTitle('Not Found Page');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle('wholesale-platform');
});

test('a deep link loads the app, not a server 404', async ({ page }) => {
  const response = await page.goto('/product/abc');
  expect(response?.status()).toBe(200);
  // Signed out, a protected deep link lands on the sign-in page of the app itself.
  await expect(page).toHaveURL(/\/login$/);
});
