import type { Page } from '@playwright/test';
import { expect, newUser, saveShipTo, signUpViaApi, test } from './support/fixtures.ts';
import { addProduct, placeOrder } from './support/shop-api.ts';

/** The order screens at phone width (390 px): no sideways scrolling, dialogs and the bell's list on screen. */
test.use({ viewport: { width: 390, height: 844 } });

const SHOTS = process.env.E2E_SCREENSHOTS === '1';

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

// The bell's code ships in the signed-in frame's file (apps/web/vite.config.ts, group `signed-in`).
const isSignedInFrame = (url: string) => /\/assets\/signed-in-[\w-]+\.js$/.test(new URL(url).pathname);

test('a signed-out visitor downloads none of the bell; a signed-in one gets it in the navbar', async ({ page, baseURL }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Some Of Our Product', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.filter(isSignedInFrame)).toEqual([]);
  await expect(page.getByTestId('notification-bell')).toHaveCount(0);

  await signUpViaApi(page.request, baseURL!, newUser());
  await page.reload();
  await expect(page.getByTestId('notification-bell')).toBeVisible();
  expect(scripts.filter(isSignedInFrame)).toHaveLength(1);
});

test('the desk, the cart, the order page and its invoice fit a phone; the bell list stays on screen and closes with Escape', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  // The seller lists and the buyer (another context) orders twice: one stays placed, one gets accepted.
  await signUpViaApi(page.request, baseURL!, newUser('seller'));
  const product = await addProduct(page.request, baseURL!, { name: 'E2E Kraft Mailer Boxes, double wall, 12 × 9 × 4 in', mainquantity: 500, minquantity: 20 });
  const buyerContext = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  await signUpViaApi(buyerContext.request, baseURL!, newUser('buyer'));
  await saveShipTo(buyerContext.request, baseURL!);
  const first = await placeOrder(buyerContext.request, baseURL!, product._id, 40);
  const second = await placeOrder(buyerContext.request, baseURL!, product._id, 60);
  const accepted = await page.request.post(`/api/sales/${second._id}/accept`, { headers: { origin: baseURL! }, data: {} });
  expect(accepted.status(), await accepted.text()).toBe(200);

  await page.goto('/sales');
  await expect(page.getByTestId('sale-card')).toHaveCount(2);
  await expectNoSidewaysScroll(page);
  if (SHOTS) await page.screenshot({ path: 'docs/screenshots/order-desk-390.png', fullPage: true });
  await page.getByRole('button', { name: `Accept order ${first.number}` }).click();
  const dialog = page.getByRole('dialog', { name: `Accept order ${first.number}` });
  const box = (await dialog.locator('.modal-box').boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.getByTestId('notification-bell').click();
  const panel = page.getByTestId('notification-panel');
  await expect(panel.getByTestId('notification').first()).toBeVisible();
  const panelBox = (await panel.boundingBox())!;
  expect(panelBox.x).toBeGreaterThanOrEqual(0);
  expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(390);
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('notification-bell')).toBeFocused();

  const buyer = await buyerContext.newPage();
  await buyer.goto('/cart');
  await expect(buyer.getByTestId('order-row')).toHaveCount(2);
  await expectNoSidewaysScroll(buyer);
  if (SHOTS) await buyer.screenshot({ path: 'docs/screenshots/cart-390.png', fullPage: true });
  await buyer.goto(`/orders/${second._id}`);
  await expect(buyer.getByTestId('order-number')).toHaveText(second.number);
  await expectNoSidewaysScroll(buyer);
  if (SHOTS) await buyer.screenshot({ path: 'docs/screenshots/order-page-390.png', fullPage: true });
  await buyer.emulateMedia({ media: 'print' });
  await expect(buyer.getByRole('button', { name: 'Print invoice' })).toBeHidden();
  await expect(buyer.locator('header.navbar')).toBeHidden();
  await expect(buyer.getByTestId('invoice')).toBeVisible();
  if (SHOTS) await buyer.screenshot({ path: 'docs/screenshots/invoice-print-390.png', fullPage: true });
  await buyerContext.close();
});
