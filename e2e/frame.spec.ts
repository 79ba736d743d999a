import { expect, test } from './support/fixtures.ts';
import { addProduct } from './support/shop-api.ts';

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

test('while the signed-in state is loading, a full-height spinner replaces the content (docs/product/screens.md)', async ({ page }) => {
  // Hold the session check's answer (the real server's) until the spinner has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/me', async (route) => {
    const answer = await route.fetch();
    await held;
    await route.fulfill({ response: answer });
  });
  await page.goto('/');
  const spinner = page.getByRole('main').getByRole('status').filter({ hasText: 'Loading your account' });
  await expect(spinner).toBeVisible();
  const viewport = page.viewportSize()!;
  const box = (await spinner.boundingBox())!;
  // Full height: the screen less the navbar (4rem).
  expect(box.height).toBeGreaterThanOrEqual(viewport.height - 64 - 1);
  await expect(page.getByRole('heading', { name: 'Our Product Categories' })).toHaveCount(0);
  // The frame around it is already there.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true })).toBeVisible();

  release();
  await expect(page.getByRole('heading', { name: 'Our Product Categories' })).toBeVisible();
  await expect(spinner).toHaveCount(0);
});

test('page titles follow the router: any letter case and a trailing slash', async ({ page, baseURL, signedInUser: _user }) => {
  const product = await addProduct(page.request, baseURL!);
  await page.goto('/CART');
  await expect(page.getByRole('heading', { name: 'Cart', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Cart');
  await page.goto('/cart/');
  await expect(page.getByRole('heading', { name: 'Cart', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Cart');
  await page.goto(`/Product/${product._id}/`);
  await expect(page.getByRole('heading', { name: product.name })).toBeVisible();
  await expect(page).toHaveTitle('wholesale-platform-Details');
  await page.goto('/ADDPRODUCT');
  await expect(page).toHaveTitle('wholesale-platform-Add Product');
});
