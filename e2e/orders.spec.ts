import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Locator, Page } from '@playwright/test';
import type { Product } from '@bulkcart/contracts/product';
import type { Order } from '@bulkcart/contracts/order';
import { expect, newUser, signUpViaApi, test } from './support/fixtures.ts';
import { addProduct, addProductOfAnotherSeller, featureOwnProducts, ordersOf, productOfAnotherSeller, stockOf } from './support/shop-api.ts';
import { expectNotice, expectNoticeFrom } from './support/notices.ts';

/**
 * Proves the notice is painted above the open modal dialog: a pixel of the notice's own background,
 * as the screen shows it, has the notice's colour. Behind the dialog it would be dimmed by the
 * dialog's backdrop.
 */
async function expectNoticeAboveDialog(page: Page, text: string): Promise<void> {
  await expect(page.locator('dialog[open]')).toHaveCount(1);
  const probe = await page.evaluate((expected) => {
    const el = Array.from(document.querySelectorAll<HTMLElement>('[popover] [role="alert"]')).find((n) => n.querySelector('p')?.textContent === expected);
    if (!el) return null;
    const box = el.getBoundingClientRect();
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d')!;
    context.fillStyle = getComputedStyle(el).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    // Inside the left padding, clear of rounded corners and text.
    return { x: Math.round(box.left + 5), y: Math.round(box.top + box.height / 2), rgb: Array.from(context.getImageData(0, 0, 1, 1).data.slice(0, 3)) };
  }, text);
  expect(probe, `notice "${text}" is shown`).not.toBeNull();
  // A 1-pixel clip is not read reliably; take a small square and read its centre.
  const shot = await page.screenshot({ clip: { x: probe!.x - 2, y: probe!.y - 2, width: 5, height: 5 } });
  const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const centre = (2 * info.width + 2) * info.channels;
  const seen = [data[centre]!, data[centre + 1]!, data[centre + 2]!];
  for (let i = 0; i < 3; i++) expect(Math.abs(seen[i]! - probe!.rgb[i]!), `pixel ${seen} vs notice colour ${probe!.rgb}`).toBeLessThanOrEqual(12);
}

async function expectErrorNoticeAboveDialog(page: Page, notice: { title: string; text: string }): Promise<void> {
  await expectNotice(page, notice);
  await expectNoticeAboveDialog(page, notice.text);
}

function checkoutDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Checkout' });
}

/** The confirm step in front of a cancel (a bulk order is not dropped by one tap). */
function cancelDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: /^Cancel order BC-\d+\?$/ });
}

function quantityInput(dialog: Locator): Locator {
  return dialog.getByRole('spinbutton', { name: 'Quantity' });
}

async function openCheckoutFromDetail(page: Page, product: Product, quantity?: number): Promise<Locator> {
  await page.goto(`/product/${product._id}`);
  await expect(page.getByRole('heading', { name: product.name })).toBeVisible();
  if (quantity !== undefined) await page.getByRole('spinbutton', { name: 'Quantity' }).fill(String(quantity));
  await page.getByRole('button', { name: 'Buy Now' }).click();
  const dialog = checkoutDialog(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

test('buys from the detail page with the chosen quantity, sees it in the cart, cancels it and the stock is back', async ({ page, baseURL, signedInUser }) => {
  const product = await productOfAnotherSeller(baseURL!, { price: 12, discount: 10, mainquantity: 500, minquantity: 20 });

  const dialog = await openCheckoutFromDetail(page, product, 35);
  await expect(dialog.getByRole('heading', { name: 'Checkout' })).toBeVisible();
  await expect(dialog.getByTestId('checkout-buyer-name')).toHaveText(signedInUser.name);
  await expect(dialog.getByTestId('checkout-buyer-email')).toHaveText(signedInUser.email);
  const input = quantityInput(dialog);
  await expect(input).toHaveValue('35');
  await expect(input).toBeFocused();
  await dialog.getByRole('button', { name: 'Increase quantity' }).click();
  await dialog.getByRole('button', { name: 'Increase quantity' }).click();
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(input).toHaveValue('36');
  await expect(dialog.getByTestId('checkout-total')).toHaveText('$388.80');

  await expectNoticeFrom(page, { title: 'Order placed', text: `36 units of ${product.name} are on their way.` }, () =>
    dialog.getByRole('button', { name: 'Buy', exact: true }).click(),
  );
  await expect(page).toHaveURL(/\/cart$/);
  await expect(dialog).toHaveCount(0);

  const row = page.getByTestId('order-row').filter({ hasText: product.name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`By: ${product.brandname}`);
  await expect(row).toContainText('Office Supplies & Stationery');
  await expect(row).toContainText('Min Buy: 20');
  await expect(row).toContainText('36 unite');
  await expect(row.getByTestId('order-unit-price')).toContainText('$10.80 each');
  await expect(row.getByTestId('order-total')).toHaveText('$388.80');
  const today = await page.evaluate(() => new Date().toLocaleDateString());
  await expect(row.locator('time')).toHaveText(today);
  await expect(row.getByRole('img', { name: product.name })).toBeVisible();
  expect(await stockOf(page.request, product._id)).toBe(464);

  await row.getByRole('button', { name: `Cancel order of ${product.name}` }).click();
  await expectNoticeFrom(page, { text: 'Order canceled' }, () => cancelDialog(page).getByRole('button', { name: 'Cancel order' }).click());
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Cart is Empty')).toBeVisible();
  expect(await stockOf(page.request, product._id)).toBe(500);
});

test('a quantity below the minimum shows the spec notice above the open dialog and sends nothing', async ({ page, baseURL, signedInUser: _buyer }) => {
  const product = await productOfAnotherSeller(baseURL!, { mainquantity: 300, minquantity: 20 });
  const dialog = await openCheckoutFromDetail(page, product);
  await expect(quantityInput(dialog)).toHaveValue('20');
  await quantityInput(dialog).fill('5');
  let orderRequests = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/order')) orderRequests++;
  });

  await dialog.getByRole('button', { name: 'Buy', exact: true }).click();

  await expectErrorNoticeAboveDialog(page, { title: 'Minimum quantity not met', text: 'You must buy at least 20 units.' });
  await expect(dialog).toBeVisible();
  // The notice itself is what screen readers hear: the dialog holds no copy of it.
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  expect(orderRequests).toBe(0);
  expect(await stockOf(page.request, product._id)).toBe(300);
});

test('more than the stock is refused by the server with the spec notice above the dialog', async ({ page, baseURL, signedInUser }) => {
  const product = await productOfAnotherSeller(baseURL!, { mainquantity: 30, minquantity: 5 });
  const dialog = await openCheckoutFromDetail(page, product, 31);

  await dialog.getByRole('button', { name: 'Buy', exact: true }).click();

  await expectErrorNoticeAboveDialog(page, { title: 'sorry supply is short', text: 'we have only 30 units.' });
  await expect(dialog).toBeVisible();
  // The notice can be dismissed while the dialog stays open.
  const notice = page.locator('[popover] [role="alert"]').filter({ hasText: 'we have only 30 units.' });
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Buy', exact: true })).toBeEnabled();
  expect(await stockOf(page.request, product._id)).toBe(30);
  expect(await ordersOf(page.request, signedInUser)).toEqual([]);
});

test('a price raised while the dialog is open is refused with "The price changed" and the new price; Buy again pays the price then shown', async ({
  page,
  baseURL,
  signedInUser,
}) => {
  const { product, sellerRequest, dispose } = await addProductOfAnotherSeller(baseURL!, { price: 12, mainquantity: 100, minquantity: 5 });
  try {
    const dialog = await openCheckoutFromDetail(page, product, 5);
    await expect(dialog.getByTestId('checkout-unit-price')).toContainText('$12.00');
    // The seller raises the price after the buyer opened the dialog.
    const raised = await sellerRequest.put(`/api/updateproduct/${product._id}`, {
      headers: { origin: baseURL! },
      data: { ...product, price: 12.5, description: product.description ?? 'Cartons', rating: product.rating ?? 4 },
    });
    expect(raised.status(), await raised.text()).toBe(200);

    await dialog.getByRole('button', { name: 'Buy', exact: true }).click();
    await expectErrorNoticeAboveDialog(page, {
      title: 'The price changed',
      text: 'The price changed: it is now $12.50 a unit (you saw $12.00). Nothing was ordered; check the new price and buy again.',
    });
    expect(await ordersOf(page.request, signedInUser)).toEqual([]);
    expect(await stockOf(page.request, product._id)).toBe(100);
    // The dialog now shows the price the server charges, and Buy states it.
    await expect(dialog.getByTestId('checkout-unit-price')).toContainText('$12.50');
    await expect(dialog.getByTestId('checkout-total')).toHaveText('$62.50');
    await dialog.getByRole('button', { name: 'Buy', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    const [placed] = await ordersOf(page.request, signedInUser);
    expect(placed).toMatchObject({ quantity: 5, unitPrice: 12.5, total: 62.5 });
  } finally {
    await dispose();
  }
});

test('stock below the minimum is called out before Buy: "Out of stock" and a disabled buy button', async ({ page, baseURL, signedInUser: _buyer }) => {
  const product = await addProduct(page.request, baseURL!, { mainquantity: 40, minquantity: 50 });
  await page.goto(`/product/${product._id}`);
  await expect(page.getByRole('heading', { name: product.name })).toBeVisible();
  await expect(page.getByTestId('out-of-stock')).toHaveText('Out of stock');
  await expect(page.getByRole('button', { name: 'Out of stock' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Buy Now' })).toHaveCount(0);
  expect(await stockOf(page.request, product._id)).toBe(40);
});

test('the stepper never goes below 1 and turns invalid input into 1; Escape closes the dialog', async ({ page, baseURL, signedInUser: _buyer }) => {
  const product = await productOfAnotherSeller(baseURL!, { minquantity: 2 });
  const dialog = await openCheckoutFromDetail(page, product);
  const input = quantityInput(dialog);
  await expect(input).toHaveValue('2');
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(input).toHaveValue('1');

  await input.fill('-7');
  await expect(input).toHaveValue('1');
  await input.fill('0');
  await expect(input).toHaveValue('1');
  await input.fill('');
  await input.blur();
  await expect(input).toHaveValue('1');
  await input.fill('12');
  await expect(input).toHaveValue('12');

  // Focus stays inside the modal dialog while tabbing around.
  // (Past the last control the browser's own toolbar may take it, never the page behind.)
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement) || document.activeElement === document.body)).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // Opening again starts afresh from the product's minimum.
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await expect(quantityInput(checkoutDialog(page))).toHaveValue('2');
  await checkoutDialog(page).getByRole('button', { name: 'Close' }).click();
  await expect(checkoutDialog(page)).toHaveCount(0);
});

test('buys from a product card of the home page', async ({ page, baseURL, signedInUser }) => {
  await page.goto('/');
  const card = page.getByTestId('featured-card').first();
  const href = await card.getByRole('link', { name: 'View Details' }).getAttribute('href');
  const productId = href!.split('/').pop()!;
  const product = (await (await page.request.get(`/api/product/${productId}`)).json()) as Product;

  await card.getByRole('button', { name: 'Buy Now' }).click();
  const dialog = checkoutDialog(page);
  await expect(quantityInput(dialog)).toHaveValue(String(product.minquantity));
  await expectNoticeFrom(page, { title: 'Order placed', text: `${product.minquantity} units of ${product.name} are on their way.` }, () =>
    dialog.getByRole('button', { name: 'Buy', exact: true }).click(),
  );
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('order-row').filter({ hasText: product.name })).toContainText(`${product.minquantity} unite`);
  expect(await stockOf(page.request, productId)).toBe(product.mainquantity - product.minquantity);

  // Put the shared demo stock back, through the cancel a buyer would use.
  const [order] = await ordersOf(page.request, signedInUser);
  expect((await page.request.delete(`/api/order/${order!._id}`, { headers: { origin: baseURL! } })).status()).toBe(200);
  expect(await stockOf(page.request, productId)).toBe(product.mainquantity);
});

test('a signed-out visitor who clicks a buy button signs in and is brought back to buy', async ({ page, request, baseURL }) => {
  const user = newUser();
  await signUpViaApi(request, baseURL!, user);
  await page.goto('/');
  await page.getByTestId('featured-card').first().getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(checkoutDialog(page)).toHaveCount(0);

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/$`));
  await page.getByTestId('featured-card').first().getByRole('button', { name: 'Buy Now' }).click();
  await expect(checkoutDialog(page).getByTestId('checkout-buyer-email')).toHaveText(user.email);
});

test('Buy and Cancel are disabled while their request is in flight, and a Buy with another quantity sends a fresh key', async ({
  page,
  baseURL,
  signedInUser,
}) => {
  const product = await productOfAnotherSeller(baseURL!, { mainquantity: 100, minquantity: 10 });
  const dialog = await openCheckoutFromDetail(page, product);
  // The real requests go through, only later: each waits until the test has looked at the button.
  let release!: () => void;
  let held = new Promise<void>((resolve) => (release = resolve));
  const keys: string[] = [];
  const isOrderCall = (url: URL) => url.pathname === '/api/order' || url.pathname.startsWith('/api/order/');
  await page.route(isOrderCall, async (route) => {
    if (route.request().method() === 'POST') keys.push(route.request().headers()['idempotency-key'] ?? '');
    await held;
    await route.continue();
  });

  await quantityInput(dialog).fill('500');
  const buy = dialog.getByRole('button', { name: 'Buy', exact: true });
  await buy.click();
  await expect(buy).toBeDisabled();
  release();
  await expectNotice(page, { title: 'sorry supply is short', text: 'we have only 100 units.' });
  await expect(buy).toBeEnabled();

  held = new Promise<void>((resolve) => (release = resolve));
  await quantityInput(dialog).fill('10');
  await buy.click();
  await expect(buy).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/cart$/);
  expect(keys).toHaveLength(2);
  expect(new Set(keys).size).toBe(2);
  for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
  expect(await ordersOf(page.request, signedInUser)).toHaveLength(1);

  held = new Promise<void>((resolve) => (release = resolve));
  await page
    .getByTestId('order-row')
    .filter({ hasText: product.name })
    .getByRole('button', { name: /Cancel order/ })
    .click();
  const cancel = cancelDialog(page).getByRole('button', { name: 'Cancel order' });
  await cancel.click();
  await expect(cancel).toBeDisabled();
  await expectNoticeFrom(page, { text: 'Order canceled' }, async () => release());
  expect(await stockOf(page.request, product._id)).toBe(100);
});

test('a cart that cannot load says why and offers Retry instead of spinning forever', async ({ page, signedInUser: _buyer }) => {
  // The network drops every orders request until the test lets them through.
  const isOrdersList = (url: URL) => url.pathname.startsWith('/api/orders/');
  await page.route(isOrdersList, (route) => route.abort('connectionreset'));
  await page.goto('/cart');
  await expect(page.getByRole('alert')).toContainText('Could not load this page', { timeout: 15_000 });
  await page.unroute(isOrdersList);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('Cart is Empty')).toBeVisible();
});

test('an empty cart says so and links to the products', async ({ page, signedInUser: _user }) => {
  await page.goto('/cart');
  await expect(page.getByText('Cart is Empty')).toBeVisible();
  await page.getByRole('link', { name: 'view products' }).click();
  await expect(page).toHaveURL(/\/categories$/i);
});

test('a cancel the server refuses shows the error message and the row goes away', async ({ page, baseURL, signedInUser: _buyer }) => {
  const product = await productOfAnotherSeller(baseURL!, { mainquantity: 100, minquantity: 10 });
  const placed = await page.request.post('/api/order', { headers: { origin: baseURL! }, data: { productId: product._id, quantity: 10 } });
  expect(placed.status()).toBe(201);
  const order = (await placed.json()) as Order;
  await page.goto('/cart');
  const row = page.getByTestId('order-row').filter({ hasText: product.name });
  await expect(row).toContainText('10 unite');

  // Cancelled meanwhile in another tab: the page still shows it.
  expect((await page.request.delete(`/api/order/${order._id}`, { headers: { origin: baseURL! } })).status()).toBe(200);
  await row.getByRole('button', { name: /Cancel order/ }).click();
  await cancelDialog(page).getByRole('button', { name: 'Cancel order' }).click();

  await expectNotice(page, { title: 'Error', text: 'Order not found' });
  await expect(row).toHaveCount(0);
  expect(await stockOf(page.request, product._id)).toBe(100);
});

/** Three orders of a product of this test's own (1, 2 and 3 units), placed through the real API. */
async function placeThreeOrders(page: Page, baseURL: string): Promise<void> {
  const product = await productOfAnotherSeller(baseURL, { mainquantity: 100, minquantity: 1 });
  for (const quantity of [1, 2, 3]) {
    const response = await page.request.post('/api/order', { headers: { origin: baseURL }, data: { productId: product._id, quantity } });
    expect(response.status()).toBe(201);
  }
}

test('the cart loads more orders a page at a time', async ({ page, baseURL, signedInUser: _buyer }) => {
  await placeThreeOrders(page, baseURL!);
  // Orders are rate limited per buyer, so rather than place 49 orders the real server is asked for
  // pages of 2: the request is rewritten, the answers and Link headers are the server's own.
  await page.route(
    (url) => url.pathname.startsWith('/api/orders/'),
    (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '2');
      return route.continue({ url: url.toString() });
    },
  );
  await page.goto('/cart');
  const rows = page.getByTestId('order-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('3 unite');
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.last()).toContainText('1 unite');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the checkout dialog fits the screen and its notice shows above it', async ({ page, baseURL, signedInUser: _buyer }) => {
    const product = await productOfAnotherSeller(baseURL!, { mainquantity: 300, minquantity: 20 });
    const dialog = await openCheckoutFromDetail(page, product);
    const box = (await dialog.locator('.modal-box').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await quantityInput(dialog).fill('3');
    await dialog.getByRole('button', { name: 'Buy', exact: true }).tap();
    await expectErrorNoticeAboveDialog(page, { title: 'Minimum quantity not met', text: 'You must buy at least 20 units.' });
  });

  test('the cart reads as cards without sideways scrolling, and cancel works', async ({ page, baseURL, signedInUser: _buyer }) => {
    const product = await productOfAnotherSeller(baseURL!, {
      name: `E2E Extra Long Product Name For Narrow Screens ${randomUUID().slice(0, 6)}`,
      mainquantity: 100,
      minquantity: 10,
    });
    const placed = await page.request.post('/api/order', { headers: { origin: baseURL! }, data: { productId: product._id, quantity: 15 } });
    expect(placed.status()).toBe(201);
    await page.goto('/cart');
    const row = page.getByTestId('order-row').filter({ hasText: product.name });
    await expect(row).toContainText('15 unite');
    await expect(page.getByRole('columnheader', { name: 'Quantity' })).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await row.getByRole('button', { name: /Cancel order/ }).tap();
    await expectNoticeFrom(page, { text: 'Order canceled' }, () => cancelDialog(page).getByRole('button', { name: 'Cancel order' }).tap());
    await expect(page.getByText('Cart is Empty')).toBeVisible();
    expect(await stockOf(page.request, product._id)).toBe(100);
  });
});

test('Buy pressed again after the answer to the first Buy was lost places one order, not two, even after trying another quantity', async ({
  page,
  baseURL,
  signedInUser,
}) => {
  const product = await productOfAnotherSeller(baseURL!, { mainquantity: 100, minquantity: 10 });
  await page.goto(`/product/${product._id}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Checkout' });
  await expect(dialog).toBeVisible();

  // The first order reaches the real server, which places it; only its answer never reaches the page.
  const keys: string[] = [];
  let firstStatus = 0;
  await page.route(
    (url) => url.pathname === '/api/order',
    async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (keys.length > 1) return route.continue();
      firstStatus = (await route.fetch()).status();
      return route.abort('connectionreset');
    },
  );
  const buy = dialog.getByRole('button', { name: 'Buy', exact: true });
  await buy.click();
  await expect(page.getByText('Cannot reach the server. Check your connection and try again.').first()).toBeAttached();
  expect(firstStatus).toBe(201);
  await expect(buy).toBeEnabled();

  // A detour: more than the stock left is refused (409) under a key of its own.
  const quantity = dialog.getByRole('spinbutton', { name: 'Quantity' });
  await quantity.fill('95');
  await buy.click();
  await expect(page.getByText('we have only 90 units.').first()).toBeAttached();
  await quantity.fill('10');
  await buy.click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('order-row').filter({ hasText: product.name })).toHaveCount(1);
  expect(keys).toHaveLength(3);
  expect(keys[1]).not.toBe(keys[0]);
  // Back at 10 units, the first Buy's key again: the server replays the order it already placed.
  expect(keys[2]).toBe(keys[0]);
  expect(await ordersOf(page.request, signedInUser)).toHaveLength(1);
  expect(await stockOf(page.request, product._id)).toBe(90);
});

test('a failed "Load more" in the cart keeps the orders shown and offers Retry under them', async ({ page, baseURL, signedInUser: _buyer }) => {
  await placeThreeOrders(page, baseURL!);
  // Pages of 2 from the real server (as in the test above); the network drops next pages until allowed.
  let dropNextPages = true;
  await page.route(
    (url) => url.pathname.startsWith('/api/orders/'),
    (route) => {
      const url = new URL(route.request().url());
      if (dropNextPages && url.searchParams.has('cursor')) return route.abort('connectionreset');
      url.searchParams.set('limit', '2');
      return route.continue({ url: url.toString() });
    },
  );
  await page.goto('/cart');
  const rows = page.getByTestId('order-row');
  await expect(rows).toHaveCount(2);

  await page.getByRole('button', { name: 'Load more' }).click();

  const error = page.getByRole('alert').filter({ hasText: 'Could not load this page' });
  await expect(error).toBeVisible({ timeout: 15_000 });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('3 unite');
  await expect(page.getByRole('heading', { name: 'Cart' })).toBeVisible();
  dropNextPages = false;
  await error.getByRole('button', { name: 'Retry' }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.last()).toContainText('1 unite');
  await expect(error).toHaveCount(0);
});

test('a product without a price offers no purchase, on its featured card and on its page', async ({ page, baseURL, signedInUser }) => {
  const product = await addProduct(page.request, baseURL!, { price: null });
  expect(product.price).toBeNull();
  await featureOwnProducts(page, signedInUser);
  await page.goto('/');
  const card = page.getByRole('article', { name: product.name, exact: true });
  await expect(card.getByTestId('featured-price')).toHaveText('Price on request');
  await expect(card.getByRole('button', { name: 'No price yet' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Buy Now' })).toHaveCount(0);

  await page.goto(`/product/${product._id}`);
  await expect(page.getByRole('heading', { name: product.name })).toBeVisible();
  await expect(page.getByRole('button', { name: 'No price yet' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Buy Now' })).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Checkout' })).toHaveCount(0);
});
