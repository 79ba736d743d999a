import { randomUUID } from 'node:crypto';
import { request as playwrightRequest, type Page } from '@playwright/test';
import { expect, newUser, saveShipTo, signUpViaApi, test } from './support/fixtures.ts';
import { addProduct, placeOrder } from './support/shop-api.ts';

/**
 * Stored content is inert (docs/reliability.md): a product whose texts are markup and script shows them
 * as plain text on every page that renders it, and nothing in them ever runs. The server keeps the
 * texts verbatim (apps/server/test/security/stored-content.test.ts); React must print them as text.
 */
function hostileProduct() {
  const tag = randomUUID().slice(0, 8);
  return {
    name: `<img src=x onerror=alert(1)> ${tag}`,
    brandname: `<script>alert("brand")</script> ${tag}`,
    description: `"><svg onload=alert(2)> ${tag}`,
    Content: `<iframe src="javascript:alert(3)"></iframe><b onmouseover=alert(4)>bold</b> ${tag}`,
    image: '/favicon.svg',
    category: 'Health & Beauty',
    price: 9,
    rating: 5,
    mainquantity: 1_000,
    minquantity: 1,
  };
}

/** Fails the test on any dialog (alert, confirm, prompt) the page opens. */
function watchDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on('dialog', (dialog) => {
    opened.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return opened;
}

/** Nothing of the stored markup became an element: no x image, no svg or iframe, no inline script. */
async function expectNoInjectedMarkup(page: Page): Promise<void> {
  expect(await page.locator('img[src="x"], svg[onload], iframe, b[onmouseover]').count()).toBe(0);
  expect(await page.locator('script:not([src])').count()).toBe(0);
}

test('a product named with markup and script shows as text on cards, detail, table, My Product, Categories and the cart, and runs nothing', async ({
  page,
  baseURL,
  signedInUser: _seller,
}) => {
  const dialogs = watchDialogs(page);
  const fields = hostileProduct();
  const product = await addProduct(page.request, baseURL!, fields);
  // Another business orders it (nobody may buy their own product); the cart below is that buyer's.
  const buyer = newUser('buyer');
  const buyerRequest = await playwrightRequest.newContext({ baseURL });
  await signUpViaApi(buyerRequest, baseURL!, buyer);
  await saveShipTo(buyerRequest, baseURL!);
  await placeOrder(buyerRequest, baseURL!, product._id, 1);
  await buyerRequest.dispose();

  // Home: the featured grid (highest rating, newest first).
  await page.goto('/');
  const featured = page.getByRole('article', { name: fields.name, exact: true });
  await expect(featured.getByRole('heading', { name: fields.name, exact: true })).toBeVisible();
  await expect(featured.getByText(`By: ${fields.brandname}`, { exact: true })).toBeVisible();
  await expectNoInjectedMarkup(page);

  // All Product, card view and table view.
  await page.goto('/allproduct');
  const card = page.getByRole('article', { name: fields.name, exact: true });
  await expect(card.getByRole('heading', { name: fields.name, exact: true })).toBeVisible();
  await expect(card.getByText(`By: ${fields.brandname}`, { exact: true })).toBeVisible();
  await expect(card.getByText(fields.description, { exact: true })).toBeVisible();
  await expectNoInjectedMarkup(page);
  await page.getByLabel('View', { exact: true }).selectOption('table');
  const row = page.getByRole('row').filter({ hasText: fields.brandname });
  await expect(row.getByText(fields.name, { exact: true })).toBeVisible();
  await expect(row.getByText(fields.brandname, { exact: true })).toBeVisible();
  await expect(row.getByText(fields.description, { exact: true })).toBeVisible();
  await expectNoInjectedMarkup(page);
  await page.screenshot({ path: test.info().outputPath('all-products-table.png'), fullPage: false });

  // The detail page, Content included.
  await page.goto(`/product/${product._id}`);
  await expect(page.getByRole('heading', { level: 1, name: fields.name, exact: true })).toBeVisible();
  await expect(page.getByText(fields.brandname, { exact: true })).toBeVisible();
  await expect(page.getByText(fields.description, { exact: true })).toBeVisible();
  await expect(page.getByText(fields.Content, { exact: true })).toBeVisible();
  await expectNoInjectedMarkup(page);
  await page.screenshot({ path: test.info().outputPath('detail.png'), fullPage: true });

  // My Product and Categories.
  await page.goto('/myproduct');
  await expect(page.getByRole('article', { name: fields.name, exact: true }).getByRole('heading', { name: fields.name, exact: true })).toBeVisible();
  await expectNoInjectedMarkup(page);
  await page.goto(`/Categories?category=${encodeURIComponent(fields.category)}`);
  await expect(page.getByRole('article', { name: fields.name, exact: true })).toBeVisible();
  await expectNoInjectedMarkup(page);

  // The seller's order desk shows the order's lines as text.
  await page.goto('/sales');
  await expect(page.getByTestId('sale-card').filter({ hasText: fields.name })).toHaveCount(1);
  await expectNoInjectedMarkup(page);

  // The cart renders from the order's snapshot of the product: the buyer's, signed in now.
  await page.context().clearCookies();
  const signedIn = await page.request.post('/api/auth/sign-in/email', {
    data: { email: buyer.email, password: buyer.password },
    headers: { origin: baseURL! },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  await page.goto('/cart');
  await expect(page.getByText(fields.name, { exact: true })).toBeVisible();
  await expect(page.getByText(`By: ${fields.brandname}`, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: `Cancel order of ${fields.name}` })).toBeVisible();
  await expectNoInjectedMarkup(page);
  await page.screenshot({ path: test.info().outputPath('cart.png'), fullPage: false });

  // Hovering the Content's <b onmouseover> would fire if it were an element.
  await page.goto(`/product/${product._id}`);
  await page.getByText(fields.Content, { exact: true }).hover();
  expect(dialogs).toEqual([]);
});

test('the checkout dialog prints the product name as text too', async ({ page, baseURL, signedInUser: _buyer }) => {
  const dialogs = watchDialogs(page);
  const fields = hostileProduct();
  // Another business sells it (nobody may buy their own product).
  const sellerRequest = await playwrightRequest.newContext({ baseURL });
  await signUpViaApi(sellerRequest, baseURL!, newUser('seller'));
  const product = await addProduct(sellerRequest, baseURL!, fields);
  await sellerRequest.dispose();
  // The product's own page, not the featured list: parallel tests add best-rated products too, and the
  // home page shows only 8 of them.
  await page.goto(`/product/${product._id}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  const checkout = page.getByRole('dialog');
  await expect(checkout.getByText(fields.name, { exact: true })).toBeVisible();
  await expectNoInjectedMarkup(page);
  expect(dialogs).toEqual([]);
});
