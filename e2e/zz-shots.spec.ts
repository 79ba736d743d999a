import { request as playwrightRequest } from '@playwright/test';
import { test, expect, newUser, signUpViaApi, saveShipTo } from './support/fixtures.ts';
import { addProduct, placeOrder } from './support/shop-api.ts';
import { verifyBusinessViaApi } from './support/verification.ts';

test.setTimeout(300_000);
const OUT = '/tmp/i30-shots';

test('shots', async ({ browser, baseURL }) => {
  const base = baseURL!;
  const sellerApi = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signUpViaApi(sellerApi, base, newUser('seller'));
  const product = await addProduct(sellerApi, base, { name: 'Kraft Shipping Cartons, double wall, 40 x 30 x 30 cm', price: 25, discount: 10, casepack: 5, minquantity: 10, mainquantity: 3000, tiers: [{ minquantity: 100, price: 22 }, { minquantity: 500, price: 20 }] });
  const buyerApi = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  const buyer = newUser('buyer');
  await signUpViaApi(buyerApi, base, buyer);
  await saveShipTo(buyerApi, base);
  await verifyBusinessViaApi(buyerApi, base, buyer.email);
  const orders = [];
  for (let i = 0; i < 5; i++) orders.push(await placeOrder(buyerApi, base, product._id, 10 + 5 * i));
  await sellerApi.post(`/api/sales/${orders[0]!._id}/accept`, { data: {} });
  await sellerApi.post(`/api/sales/${orders[1]!._id}/accept`, { data: {} });
  await sellerApi.post(`/api/sales/${orders[1]!._id}/ship`, { data: { carrier: 'UPS', tracking: '1Z' } });
  await sellerApi.post(`/api/sales/${orders[2]!._id}/decline`, { data: { reason: 'No stock' } });
  await buyerApi.delete(`/api/order/${orders[3]!._id}`);
  const states = { buyer: await buyerApi.storageState(), seller: await sellerApi.storageState() };

  for (const width of [390, 1280]) {
    const ctx = await browser.newContext({ baseURL: base, viewport: { width, height: 844 }, storageState: states.buyer });
    const page = await ctx.newPage();
    await page.goto('/cart');
    await expect(page.getByTestId('order-row').first()).toBeVisible();
    await page.keyboard.press('Tab');
    await page.screenshot({ path: `${OUT}/skip-link-${width}.png` });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.screenshot({ path: `${OUT}/focus-ring-${width}.png` });
    await page.screenshot({ path: `${OUT}/cart-${width}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Cancelled' }).click();
    await expect(page.getByTestId('order-row').first()).toBeVisible();
    await page.screenshot({ path: `${OUT}/cart-cancelled-${width}.png`, fullPage: true });
    await page.getByTestId('notification-bell').click();
    await expect(page.getByTestId('notification').first()).toBeVisible();
    await page.screenshot({ path: `${OUT}/bell-${width}.png` });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.screenshot({ path: `${OUT}/account-${width}.png` });
    await page.keyboard.press('Escape');
    await page.goto(`/orders/${orders[1]!._id}`);
    await expect(page.getByTestId('order-lines')).toBeVisible();
    await page.screenshot({ path: `${OUT}/order-${width}.png`, fullPage: true });
    await page.goto(`/product/${product._id}`);
    const q = page.getByRole('spinbutton', { name: 'Quantity' });
    await q.fill('27');
    await page.screenshot({ path: `${OUT}/detail-casepack-${width}.png`, fullPage: true });
    await q.fill('10');
    await page.getByRole('button', { name: 'Buy Now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Checkout' });
    await expect(dialog.getByTestId('checkout-ship-to')).toBeVisible();
    await page.screenshot({ path: `${OUT}/checkout-verified-${width}.png` });
    await dialog.getByRole('spinbutton', { name: 'Quantity' }).fill('27');
    await dialog.getByRole('spinbutton', { name: 'Quantity' }).press('Enter');
    await page.screenshot({ path: `${OUT}/checkout-casepack-${width}.png` });
    await page.keyboard.press('Escape');
    if (width === 390) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.screenshot({ path: `${OUT}/phone-menu-390.png` });
      await page.keyboard.press('Escape');
    }
    await page.goto('/search?q=gloves');
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    await page.screenshot({ path: `${OUT}/search-${width}.png` });
    await page.goto('/nothing-here');
    await page.screenshot({ path: `${OUT}/404-${width}.png` });
    await ctx.close();

    const sctx = await browser.newContext({ baseURL: base, viewport: { width, height: 844 }, storageState: states.seller });
    const sp = await sctx.newPage();
    await sp.goto('/sales');
    await expect(sp.getByTestId('sale-card').first()).toBeVisible();
    await sp.screenshot({ path: `${OUT}/sales-${width}.png`, fullPage: true });
    await sp.goto(`/product/${product._id}`);
    await expect(sp.getByRole('button', { name: 'This is your product' })).toBeVisible();
    await sp.screenshot({ path: `${OUT}/own-product-${width}.png` });
    await sp.goto('/myproduct');
    await expect(sp.getByRole('heading', { name: 'My Product' })).toBeVisible();
    await sp.waitForTimeout(1000);
    await sp.screenshot({ path: `${OUT}/myproduct-${width}.png`, fullPage: true });
    await sctx.close();
  }
});
