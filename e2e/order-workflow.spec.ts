import type { Browser, Locator, Page } from '@playwright/test';
import { shipByWindow } from '@bulkcart/contracts/order';
import { expect, newUser, signUpViaApi, test, type E2EUser } from './support/fixtures.ts';
import { addProduct, ordersOf, placeOrder, productOfAnotherSeller, stockOf } from './support/shop-api.ts';
import { expectNoticeFrom } from './support/notices.ts';

/**
 * The order workflow between two businesses, each in its own browser context against the real server
 * (docs/decisions/013-order-workflow-screens.md): the buyer orders to a new address, the seller
 * accepts, ships and the buyer marks it received; a cancel through the confirm dialog; a decline.
 */

const SHOTS = process.env.E2E_SCREENSHOTS === '1';

const NEW_ADDRESS = {
  company: 'Northwind Wholesale',
  line1: '400 Market Street',
  city: 'Denver',
  region: 'CO',
  postalCode: '80202',
  country: 'us',
  phone: '+1 303 555 0142',
};

/** A second business in a browser context of its own, signed in; its product listed through the API. */
async function sellerWithProduct(browser: Browser, baseURL: string, fields: object = {}) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const seller = newUser('seller');
  await signUpViaApi(context.request, baseURL, seller);
  const product = await addProduct(context.request, baseURL, fields);
  const page = await context.newPage();
  return { seller, product, page, close: () => context.close() };
}

/** Pages in a PDF Chromium wrote: its page objects (`/Type /Page`, not `/Pages`). */
function pdfPageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;
}

function bell(page: Page): Locator {
  return page.getByTestId('notification-bell');
}

function saleCard(page: Page, number: string): Locator {
  return page.getByTestId('sale-card').and(page.locator(`[data-order-number="${number}"]`));
}

function cartRow(page: Page, number: string): Locator {
  return page.getByTestId('order-row').and(page.locator(`[data-order-number="${number}"]`));
}

test('buyer orders to a new address; the seller accepts with a date and ships with tracking; the buyer follows each status and the bell, then marks it received', async ({
  page,
  browser,
  baseURL,
  signIn,
}) => {
  test.setTimeout(150_000);
  const buyer: E2EUser = await signIn(page);
  const shop = await sellerWithProduct(browser, baseURL!, { price: 8, mainquantity: 400, minquantity: 25 });
  try {
    // The buyer has no saved address: the dialog asks for one, checked by the shared schema.
    await page.goto(`/product/${shop.product._id}`);
    await page.getByRole('button', { name: 'Buy Now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Checkout' });
    const form = dialog.getByTestId('ship-to-form');
    await expect(form).toBeVisible();
    await dialog.getByRole('button', { name: 'Buy', exact: true }).click();
    await expect(form.getByText('Company is required')).toBeVisible();
    await expect(form.getByText('Address line 1 is required')).toBeVisible();
    await form.getByLabel('Company').fill(NEW_ADDRESS.company);
    await form.getByLabel('Address line 1').fill(NEW_ADDRESS.line1);
    await form.getByLabel('City').fill(NEW_ADDRESS.city);
    await form.getByLabel('State or region').fill(NEW_ADDRESS.region);
    await form.getByLabel('Postal code').fill(NEW_ADDRESS.postalCode);
    await form.getByLabel('Country').fill(NEW_ADDRESS.country);
    await form.getByLabel('Phone').fill(NEW_ADDRESS.phone);
    if (SHOTS) await page.screenshot({ path: 'docs/screenshots/checkout-ship-to-1280.png' });
    // A double click places one order and shows one success notice.
    let orderPosts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/order') orderPosts++;
    });
    await expectNoticeFrom(page, { title: 'Order placed', text: `25 units of ${shop.product.name} are on their way.` }, () =>
      dialog.getByRole('button', { name: 'Buy', exact: true }).dblclick(),
    );
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.locator('[popover] .alert').filter({ hasText: 'Order placed' })).toHaveCount(0, { timeout: 3000 });
    expect(orderPosts).toBe(1);

    const row = page.getByTestId('order-row').filter({ hasText: shop.product.name });
    await expect(row).toHaveCount(1);
    const number = (await row.getByTestId('order-number').textContent())!;
    expect(number).toMatch(/^BC-\d+$/);
    await expect(row.getByTestId('order-status')).toHaveText('Placed');
    await expect(row.getByTestId('order-total')).toHaveText('$200.00');
    await expect(row.getByRole('button', { name: `Cancel order of ${shop.product.name}` })).toBeVisible();
    expect(await stockOf(page.request, shop.product._id)).toBe(375);

    // The address was saved for next time: a second checkout shows it with Change.
    await page.goto(`/product/${shop.product._id}`);
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await expect(dialog.getByTestId('checkout-ship-to')).toContainText('Ship to:');
    await expect(dialog.getByTestId('checkout-ship-to')).toContainText('Northwind Wholesale, 400 Market Street, Denver, CO 80202, US');
    await expect(dialog.getByTestId('ship-to-form')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Change the ship-to address' }).click();
    await expect(dialog.getByLabel('Company')).toHaveValue('Northwind Wholesale');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The seller learns of it from the bell within seconds, and finds it on the desk.
    await shop.page.goto('/');
    await expect(bell(shop.page)).toHaveAccessibleName(/Notifications, [1-9]\d* unread/, { timeout: 15_000 });
    await bell(shop.page).click();
    const panel = shop.page.getByTestId('notification-panel');
    await expect(panel.getByTestId('notification').first()).toContainText(number);
    await shop.page.getByRole('link', { name: 'Order Desk' }).click();
    await expect(shop.page).toHaveURL(/\/sales$/);
    const card = saleCard(shop.page, number);
    await expect(card.getByTestId('order-status')).toHaveText('Placed');
    await expect(card.getByTestId('buyer-name')).toHaveText(buyer.name);
    // Not a verified business: no badge (docs/decisions/014-business-verification.md; wholesale-pricing.spec.ts shows one).
    await expect(card.getByTestId('buyer-verified')).toHaveCount(0);
    await expect(card.getByTestId('address')).toContainText('Northwind Wholesale');
    await expect(card.getByTestId('address')).toContainText('Denver, CO 80202');
    await expect(card).toContainText(`25 units × ${shop.product.name}`);
    await expect(card.getByTestId('order-total')).toHaveText('Total $200.00');
    await expect(shop.page.getByTestId('sales-tab-placed')).toContainText('1');

    // Accept: the date picker starts two business days ahead and allows three at most.
    const dates = shipByWindow(new Date());
    await card.getByRole('button', { name: `Accept order ${number}` }).click();
    const accept = shop.page.getByRole('dialog', { name: `Accept order ${number}` });
    const shipBy = accept.getByLabel('Ship by');
    await expect(shipBy).toHaveValue(dates.default);
    await expect(shipBy).toHaveAttribute('max', dates.max);
    await shipBy.fill(dates.max);
    await expectNoticeFrom(shop.page, { text: `Order ${number} accepted` }, () => accept.getByRole('button', { name: 'Accept order' }).click());
    await expect(card.getByTestId('order-status')).toHaveText('Accepted');
    await expect(card.getByTestId('order-ship-by').locator('time')).toHaveAttribute('datetime', dates.max);

    // The buyer sees it accepted, with the date, and can no longer cancel.
    await page.goto('/cart');
    await expect(cartRow(page, number).getByTestId('order-status')).toHaveText('Accepted');
    await expect(cartRow(page, number).getByTestId('order-ship-by').locator('time')).toHaveAttribute('datetime', dates.max);
    await expect(cartRow(page, number).getByRole('button', { name: /Cancel order/ })).toHaveCount(0);
    await expect(bell(page)).toHaveAccessibleName(/Notifications, [1-9]\d* unread/, { timeout: 15_000 });

    // Ship with carrier and tracking, after the confirm step.
    await card.getByRole('button', { name: `Ship order ${number}` }).click();
    const ship = shop.page.getByRole('dialog', { name: `Ship order ${number}` });
    await ship.getByLabel('Carrier (optional)').fill('UPS');
    await ship.getByLabel('Tracking number (optional)').fill('1Z999AA10123456784');
    await expectNoticeFrom(shop.page, { text: `Order ${number} shipped` }, () => ship.getByRole('button', { name: 'Mark shipped' }).click());
    await expect(card.getByTestId('order-status')).toHaveText('Shipped');
    await expect(card.getByTestId('order-tracking')).toHaveText('UPS · 1Z999AA10123456784');
    if (SHOTS) await shop.page.screenshot({ path: 'docs/screenshots/order-desk-1280.png', fullPage: true });

    // The buyer: the cart shows the tracking; the bell lists the shipment; the order page marks it received.
    await page.reload();
    await expect(cartRow(page, number).getByTestId('order-status')).toHaveText('Shipped');
    await expect(cartRow(page, number).getByTestId('order-tracking')).toHaveText('UPS · 1Z999AA10123456784');
    if (SHOTS) await page.screenshot({ path: 'docs/screenshots/cart-1280.png', fullPage: true });
    await bell(page).click();
    const buyerPanel = page.getByTestId('notification-panel');
    await expect(buyerPanel.getByTestId('notification').filter({ hasText: number })).toHaveCount(2);
    if (SHOTS) await page.screenshot({ path: 'docs/screenshots/notifications-1280.png' });
    await buyerPanel.getByRole('button', { name: 'Mark all read' }).click();
    await expect(page.getByTestId('notification-count')).toHaveCount(0);
    await expect(bell(page)).toHaveAccessibleName('Notifications');
    await buyerPanel.getByTestId('notification').filter({ hasText: number }).first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/orders/`));

    const orderPage = page.getByTestId('order-page');
    await expect(orderPage.getByTestId('order-number')).toHaveText(number);
    await expect(orderPage.getByTestId('order-status').first()).toHaveText('Shipped');
    await expect(orderPage.getByTestId('seller-name')).toHaveText(shop.seller.name);
    await expect(orderPage.getByTestId('buyer-name')).toHaveText(buyer.name);
    await expect(orderPage.getByTestId('invoice').getByTestId('address')).toContainText('400 Market Street');
    await expect(orderPage.getByTestId('order-lines')).toContainText(shop.product.name);
    await expect(orderPage.getByTestId('order-lines').getByTestId('order-total')).toHaveText('$200.00');
    await expect(orderPage.getByTestId('order-timeline').locator('li')).toHaveCount(3);
    await expect(orderPage.getByRole('button', { name: 'Buy again' })).toHaveCount(0);
    if (SHOTS) {
      await page.screenshot({ path: 'docs/screenshots/order-page-1280.png', fullPage: true });
      await page.emulateMedia({ media: 'print' });
      await page.screenshot({ path: 'docs/screenshots/invoice-print-1280.png', fullPage: true });
      // Back to no emulation: page.pdf() prints with print media unless screen is emulated.
      await page.emulateMedia({ media: null });
    }

    // The invoice prints on one page, A4 or Letter.
    for (const format of ['A4', 'Letter'] as const) expect(pdfPageCount(await page.pdf({ format })), `${format} pages`).toBe(1);

    await orderPage.getByRole('button', { name: 'Mark received' }).click();
    const confirm = page.getByRole('dialog', { name: `Mark order ${number} received?` });
    await expectNoticeFrom(page, { text: `Order ${number} marked received` }, () => confirm.getByRole('button', { name: 'Mark received' }).click());
    await expect(orderPage.getByTestId('order-status').first()).toHaveText('Delivered');
    await expect(orderPage.getByTestId('order-timeline').locator('li')).toHaveCount(4);
    await expect(orderPage.getByRole('button', { name: 'Mark received' })).toHaveCount(0);

    // Buy again opens the checkout with the same product and quantity.
    await orderPage.getByRole('button', { name: 'Buy again' }).click();
    await expect(dialog.getByRole('spinbutton', { name: 'Quantity' })).toHaveValue('25');
    await expect(dialog).toContainText(shop.product.name);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The seller's desk shows it delivered; nothing is left to do on it.
    await shop.page.reload();
    await expect(card.getByTestId('order-status')).toHaveText('Delivered');
    await expect(card.getByRole('button')).toHaveCount(0);
  } finally {
    await shop.close();
  }
});

test('Change ships this order elsewhere and, when asked to, keeps the new address for next time', async ({ page, baseURL, signedInUser }) => {
  const product = await productOfAnotherSeller(baseURL!, { mainquantity: 100, minquantity: 10 });
  await page.goto(`/product/${product._id}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Checkout' });
  await expect(dialog.getByTestId('checkout-ship-to')).toContainText('E2E Traders Ltd, 12 Harbour Road, Unit 4, Portland, OR 97201, US');
  await dialog.getByRole('button', { name: 'Change the ship-to address' }).click();
  await expect(dialog.getByLabel('Save as my address for next orders')).toBeChecked();
  await dialog.getByLabel('Company').fill('E2E Traders Annex');
  await dialog.getByLabel('Address line 2 (optional)').fill('');
  await expectNoticeFrom(page, { title: 'Order placed', text: `10 units of ${product.name} are on their way.` }, () =>
    dialog.getByRole('button', { name: 'Buy', exact: true }).click(),
  );
  await expect(page).toHaveURL(/\/cart$/);
  const [order] = await ordersOf(page.request, signedInUser);
  expect(order!.shipTo).toEqual({
    company: 'E2E Traders Annex',
    line1: '12 Harbour Road',
    city: 'Portland',
    region: 'OR',
    postalCode: '97201',
    country: 'US',
    phone: '+1 503 555 0100',
  });
  await expect
    .poll(async () => ((await (await page.request.get('/api/account/ship-to')).json()) as { shipTo: { company: string } }).shipTo.company)
    .toBe('E2E Traders Annex');
});

test('a buyer cancels a placed order through the confirm dialog: Keep order changes nothing, Cancel order restocks and tells the seller', async ({
  page,
  browser,
  baseURL,
  signedInUser: _buyer,
}) => {
  test.setTimeout(60_000);
  const shop = await sellerWithProduct(browser, baseURL!, { mainquantity: 120, minquantity: 10 });
  try {
    const order = await placeOrder(page.request, baseURL!, shop.product._id, 30);
    expect(await stockOf(page.request, shop.product._id)).toBe(90);
    await page.goto('/cart');
    const row = cartRow(page, order.number);
    await expect(row.getByTestId('order-status')).toHaveText('Placed');

    await row.getByRole('button', { name: `Cancel order of ${shop.product.name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Cancel order ${order.number}?` });
    await expect(confirm).toContainText('30 units');
    await confirm.getByRole('button', { name: 'Keep order' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(row).toHaveCount(1);
    expect(await stockOf(page.request, shop.product._id)).toBe(90);

    await row.getByRole('button', { name: `Cancel order of ${shop.product.name}` }).click();
    await expect(confirm).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await row.getByRole('button', { name: `Cancel order of ${shop.product.name}` }).click();
    await expectNoticeFrom(page, { text: 'Order canceled' }, () => confirm.getByRole('button', { name: 'Cancel order' }).click());
    await expect(row).toHaveCount(0);
    expect(await stockOf(page.request, shop.product._id)).toBe(120);

    // The seller is told, and the desk files it under Cancelled.
    await shop.page.goto('/sales?status=cancelled');
    await expect(saleCard(shop.page, order.number).getByTestId('order-status')).toHaveText('Cancelled');
    await expect(shop.page.getByTestId('sales-tab-cancelled')).toContainText('1');
    await expect(bell(shop.page)).toHaveAccessibleName(/Notifications, [1-9]\d* unread/, { timeout: 15_000 });
  } finally {
    await shop.close();
  }
});

test('a seller declines with a reason: the stock returns and the buyer sees why', async ({ page, browser, baseURL, signedInUser: _buyer }) => {
  test.setTimeout(60_000);
  const shop = await sellerWithProduct(browser, baseURL!, { mainquantity: 200, minquantity: 20 });
  try {
    const order = await placeOrder(page.request, baseURL!, shop.product._id, 50);
    expect(await stockOf(page.request, shop.product._id)).toBe(150);

    await shop.page.goto('/sales?status=placed');
    const card = saleCard(shop.page, order.number);
    await card.getByRole('button', { name: `Decline order ${order.number}` }).click();
    const decline = shop.page.getByRole('dialog', { name: `Decline order ${order.number}` });
    await expect(decline).toContainText('This cannot be undone');
    // A reason is required, by the shared schema, before anything is sent.
    await decline.getByRole('button', { name: 'Decline order' }).click();
    await expect(decline.getByText('Say why you decline this order')).toBeVisible();
    await decline.getByLabel('Reason').fill('Out of the blue colour until spring');
    await expectNoticeFrom(shop.page, { text: `Order ${order.number} declined` }, () => decline.getByRole('button', { name: 'Decline order' }).click());
    // Gone from the Placed tab, found under Declined.
    await expect(card).toHaveCount(0);
    await shop.page.getByTestId('sales-tab-declined').click();
    await expect(shop.page).toHaveURL(/status=declined/);
    await expect(card.getByTestId('order-status')).toHaveText('Declined');
    await expect(card).toContainText('Reason: Out of the blue colour until spring');
    expect(await stockOf(page.request, shop.product._id)).toBe(200);

    await page.goto(`/orders/${order._id}`);
    await expect(page.getByTestId('order-status').first()).toHaveText('Declined');
    await expect(page.getByTestId('order-status-note')).toHaveText('Reason: Out of the blue colour until spring');
    await expect(page.getByRole('button', { name: 'Buy again' })).toBeVisible();
    await expect(bell(page)).toHaveAccessibleName(/Notifications, [1-9]\d* unread/, { timeout: 15_000 });
  } finally {
    await shop.close();
  }
});

test('another business cannot open an order it is not part of', async ({ page, baseURL, browser, signedInUser: _buyer }) => {
  const shop = await sellerWithProduct(browser, baseURL!, { mainquantity: 100, minquantity: 10 });
  try {
    const order = await placeOrder(page.request, baseURL!, shop.product._id, 10);
    const strangerContext = await browser.newContext({ baseURL });
    await signUpViaApi(strangerContext.request, baseURL!, newUser('stranger'));
    const stranger = await strangerContext.newPage();
    await stranger.goto(`/orders/${order._id}`);
    await expect(stranger.getByRole('alert')).toContainText('This order does not exist, or it is not yours.');
    await strangerContext.close();
    // The seller opening the buyer's link sees it from the seller's side, without the buyer's buttons.
    await shop.page.goto(`/orders/${order._id}`);
    await expect(shop.page.getByTestId('order-number')).toHaveText(order.number);
    await expect(shop.page.getByRole('link', { name: '← Order desk' })).toBeVisible();
    await expect(shop.page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  } finally {
    await shop.close();
  }
});

test('the delete confirm dialog says how many open orders the product has', async ({ page, baseURL, browser, signedInUser: _seller }) => {
  const product = await addProduct(page.request, baseURL!, { mainquantity: 100, minquantity: 10 });
  const buyerContext = await browser.newContext({ baseURL });
  await signUpViaApi(buyerContext.request, baseURL!, newUser('buyer'));
  await buyerContext.request.put('/api/account/ship-to', { headers: { origin: baseURL! }, data: { ...NEW_ADDRESS } });
  await placeOrder(buyerContext.request, baseURL!, product._id, 10);
  await placeOrder(buyerContext.request, baseURL!, product._id, 20);
  await buyerContext.close();

  await page.goto('/myproduct');
  await page.getByRole('button', { name: `Delete ${product.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Do you want to Delete this?' });
  await expect(dialog.getByTestId('open-orders')).toHaveText('It has 2 open orders. They stay on your order desk and can still be shipped.');
  await expectNoticeFrom(page, { text: ' not Delete !' }, () => dialog.getByRole('button', { name: 'Cancel' }).click());
});
