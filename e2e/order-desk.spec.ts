import { request as playwrightRequest, type Locator, type Page } from '@playwright/test';
import { shipByWindow } from '@bulkcart/contracts/order';
import type { Order } from '@bulkcart/contracts/order';
import { expect, newUser, saveShipTo, signUpViaApi, test } from './support/fixtures.ts';
import { expectNoticeFrom } from './support/notices.ts';
import { addProduct, placeOrder } from './support/shop-api.ts';

/**
 * The seller's order desk: order numbers open the order page, a packing slip prints without prices,
 * several placed orders are accepted in one step with one ship-by date, every accept and decline is
 * confirmed by a notice, and on a phone the status tabs scroll with a cue at the edge.
 */

const SHOTS = process.env.E2E_SCREENSHOTS === '1';

function saleCard(page: Page, order: Order): Locator {
  return page.getByTestId('sale-card').and(page.locator(`[data-order-number="${order.number}"]`));
}

/** The page's seller lists a product; a buyer in a request context of its own places `count` orders of it. */
async function ordersOfMyProduct(page: Page, baseURL: string, count: number) {
  const product = await addProduct(page.request, baseURL, { mainquantity: 1000, minquantity: 5 });
  const buyerApi = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  await signUpViaApi(buyerApi, baseURL, newUser('buyer'));
  await saveShipTo(buyerApi, baseURL);
  const orders: Order[] = [];
  for (let i = 0; i < count; i++) orders.push(await placeOrder(buyerApi, baseURL, product._id, 5 * (i + 1)));
  return { product, orders, buyerApi };
}

test('order numbers open the order page, whose packing slip prints without prices', async ({ page, baseURL, signedInUser: _seller }) => {
  const { orders, buyerApi } = await ordersOfMyProduct(page, baseURL!, 1);
  await buyerApi.dispose();
  const [order] = orders as [Order];
  await page.goto('/sales');
  await saleCard(page, order).getByRole('link', { name: order.number }).click();
  await expect(page).toHaveURL(`/orders/${order._id}`);
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(order.number) })).toBeVisible();

  // window.print() is the browser's; here it only counts, and the print media shows what it would print.
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void (window as unknown as { printed: number }).printed++;
  });
  await page.getByRole('button', { name: 'Print packing slip' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  const slip = page.getByTestId('packing-slip');
  await expect(slip).toBeVisible();
  await expect(page.getByTestId('invoice')).toBeHidden();
  await expect(page.getByText('BulkCart · Packing slip')).toBeVisible();
  await expect(slip).toContainText('5 units');
  await expect(slip).toContainText(order.shipTo!.company);
  await expect(slip).not.toContainText('$');
  if (SHOTS) await page.screenshot({ path: 'docs/screenshots/packing-slip-print-1280.png', fullPage: true });

  // Print invoice prints the invoice again, prices and all.
  await page.emulateMedia({ media: 'screen' });
  await expect(slip).toBeHidden();
  await page.getByRole('button', { name: 'Print invoice' }).click();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('invoice')).toBeVisible();
  await expect(slip).toBeHidden();
  await expect(page.getByTestId('invoice')).toContainText('$');
  await page.emulateMedia({ media: 'screen' });
});

test('several placed orders accepted in one step with one ship-by date; every accept and decline is confirmed by a notice', async ({
  page,
  baseURL,
  signedInUser: _seller,
}) => {
  const { orders, buyerApi } = await ordersOfMyProduct(page, baseURL!, 5);
  const [first, second, gone, single, declined] = orders as [Order, Order, Order, Order, Order];
  const window = shipByWindow(new Date());
  await page.goto('/sales?status=placed');
  const bar = page.getByTestId('selection-bar');
  await expect(bar.getByRole('button', { name: 'Accept selected (0)' })).toBeDisabled();
  for (const order of [first, second, gone])
    await saleCard(page, order)
      .getByRole('checkbox', { name: `Select order ${order.number}` })
      .check();
  await expect(bar.getByRole('checkbox', { name: 'Select all placed (5)' })).not.toBeChecked();
  // The buyer cancels one of them meanwhile.
  expect((await buyerApi.delete(`/api/order/${gone._id}`)).status()).toBe(200);
  await buyerApi.dispose();

  await bar.getByRole('button', { name: 'Accept selected (3)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Accept 3 orders' });
  await expect(dialog.getByTestId('bulk-accept-orders')).toHaveText(`${gone.number}, ${second.number} and ${first.number}`);
  await expect(dialog.getByLabel('Ship by')).toHaveValue(window.default);
  await dialog.getByLabel('Ship by').fill(window.max);
  if (SHOTS) await page.screenshot({ path: 'docs/screenshots/bulk-accept-1280.png' });
  await Promise.all([
    expectNoticeFrom(page, { text: `Orders ${second.number} and ${first.number} accepted`, role: 'status' }, () =>
      dialog.getByRole('button', { name: 'Accept 3 orders' }).click(),
    ),
    expectNoticeFrom(page, { text: `${gone.number}: This order was cancelled.`, title: 'One order not accepted', role: 'alert' }, async () => undefined),
  ]);
  await expect(dialog).toHaveCount(0);
  for (const order of [first, second]) await expect(saleCard(page, order)).toHaveCount(0);
  await expect(bar.getByRole('button', { name: 'Accept selected (0)' })).toBeDisabled();
  await page.getByTestId('sales-tab-accepted').click();
  for (const order of [first, second]) await expect(saleCard(page, order)).toContainText(`Ship by`);

  // One at a time, each confirmed too.
  await page.getByTestId('sales-tab-placed').click();
  await saleCard(page, single)
    .getByRole('button', { name: `Accept order ${single.number}` })
    .click();
  await expectNoticeFrom(page, { text: `Order ${single.number} accepted`, role: 'status' }, () =>
    page
      .getByRole('dialog', { name: `Accept order ${single.number}` })
      .getByRole('button', { name: 'Accept order' })
      .click(),
  );
  await saleCard(page, declined)
    .getByRole('button', { name: `Decline order ${declined.number}` })
    .click();
  const decline = page.getByRole('dialog', { name: `Decline order ${declined.number}` });
  await decline.getByLabel('Reason').fill('Out of this size');
  await expectNoticeFrom(page, { text: `Order ${declined.number} declined`, role: 'status' }, () =>
    decline.getByRole('button', { name: 'Decline order' }).click(),
  );
  await expect(page.getByTestId('sales-empty')).toHaveText('No placed orders.');
  await expect(page.getByTestId('selection-bar')).toHaveCount(0);
});

test('on a phone the status tabs scroll sideways with a cue at the edge that has more', async ({ page, baseURL, signedInUser: _seller }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { buyerApi } = await ordersOfMyProduct(page, baseURL!, 1);
  await buyerApi.dispose();
  await page.goto('/sales');
  const strip = page.getByTestId('filter-tabs');
  const cancelled = page.getByTestId('sales-tab-cancelled');
  await expect(page.getByTestId('sales-tab-all')).toContainText('1');
  await expect(page.getByTestId('more-tabs-after')).toBeVisible();
  await expect(page.getByTestId('more-tabs-before')).toHaveCount(0);
  await expect(cancelled).not.toBeInViewport({ ratio: 1 });
  if (SHOTS) await page.screenshot({ path: 'docs/screenshots/order-desk-tabs-390.png' });

  await strip.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(page.getByTestId('more-tabs-after')).toHaveCount(0);
  await expect(page.getByTestId('more-tabs-before')).toBeVisible();
  await expect(cancelled).toBeInViewport({ ratio: 1 });
  // Nothing else on the page scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // A tab chosen from a link is scrolled into view.
  await page.goto('/sales?status=shipped');
  await expect(page.getByTestId('sales-tab-shipped')).toBeInViewport({ ratio: 1 });
});
