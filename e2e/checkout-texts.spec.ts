import type { Page } from '@playwright/test';
import { expect, test, type E2EUser } from './support/fixtures.ts';
import { ordersOf, productOfAnotherSeller } from './support/shop-api.ts';
import { verifyBusinessViaApi } from './support/verification.ts';

/** What the checkout dialog tells a buyer before Buy: the right price nudge, and case-pack rounding. */

const SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

/** Cases of 5 from 10, $25 with breaks at 100 ($22) and 500 ($20). */
const TIERED = {
  price: 25,
  casepack: 5,
  minquantity: 10,
  mainquantity: 2000,
  tiers: [
    { minquantity: 100, price: 22 },
    { minquantity: 500, price: 20 },
  ],
};

async function openCheckout(page: Page, productId: string) {
  await page.goto(`/product/${productId}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Checkout' });
  await expect(dialog.getByRole('button', { name: 'Buy', exact: true })).toBeEnabled();
  return dialog;
}

test('a verified business is told the best break, never asked to verify', async ({ page, baseURL, signedInUser: buyer }) => {
  await verifyBusinessViaApi(page.request, baseURL!, buyer.email);
  const product = await productOfAnotherSeller(baseURL!, TIERED);
  const dialog = await openCheckout(page, product._id);
  const quantity = dialog.getByRole('spinbutton', { name: 'Quantity' });

  await expect(quantity).toHaveValue('10');
  await expect(dialog.getByTestId('checkout-best-break')).toHaveText('Order 500+ to pay $20.00');
  await expect(dialog.getByText('Verify your business')).toHaveCount(0);
  await expect(dialog.getByText(/Verified businesses pay/)).toHaveCount(0);
  if (SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/checkout-verified-1280.png' });

  // Past the first break the best one is still ahead.
  await quantity.fill('150');
  await quantity.blur();
  await expect(dialog.getByTestId('checkout-unit-price')).toHaveText('$22.00 (volume price from 100)');
  await expect(dialog.getByTestId('checkout-best-break')).toHaveText('Order 500+ to pay $20.00');
  // Near it, the "add N more" nudge names the same break: said once.
  await quantity.fill('450');
  await quantity.blur();
  await expect(dialog.getByTestId('checkout-nudge')).toHaveText('Add 50 more to pay $20.00 each');
  await expect(dialog.getByTestId('checkout-best-break')).toHaveCount(0);
  // At the best break there is nothing left to say.
  await quantity.fill('500');
  await quantity.blur();
  await expect(dialog.getByTestId('checkout-unit-price')).toHaveText('$20.00 (volume price from 500)');
  await expect(dialog.getByTestId('checkout-best-break')).toHaveCount(0);
  await expect(dialog.getByTestId('checkout-nudge')).toHaveCount(0);
  await expect(dialog.getByText('Verify your business')).toHaveCount(0);
});

test('an unverified buyer still sees what verifying would save', async ({ page, baseURL, signedInUser: _buyer }) => {
  const product = await productOfAnotherSeller(baseURL!, TIERED);
  const dialog = await openCheckout(page, product._id);
  await expect(dialog.getByTestId('verify-nudge')).toHaveText('Verified businesses pay $20.00 at 500+. Verify your business');
  await expect(dialog.getByTestId('checkout-best-break')).toHaveCount(0);
});

async function expectNoOrders(page: Page, buyer: E2EUser) {
  expect(await ordersOf(page.request, buyer)).toEqual([]);
}

test('a quantity typed off the case pack is rounded in the field, with a note, before anything is bought', async ({ page, baseURL, signedInUser: buyer }) => {
  const product = await productOfAnotherSeller(baseURL!, TIERED);

  // On the detail page, as typed.
  await page.goto(`/product/${product._id}`);
  const pageQuantity = page.getByRole('spinbutton', { name: 'Quantity' });
  await pageQuantity.fill('27');
  await expect(page.getByTestId('case-pack-note')).toHaveText('Rounded up to whole cases of 5: 30 units.');
  await expect(pageQuantity).toHaveAccessibleDescription('Rounded up to whole cases of 5: 30 units.');

  const dialog = await openCheckout(page, product._id);
  const quantity = dialog.getByRole('spinbutton', { name: 'Quantity' });
  const note = dialog.getByTestId('case-pack-note');
  await expect(note).toHaveCount(0);

  // Enter straight from the field: the first press shows the rounding, and buys nothing.
  await quantity.fill('27');
  await expect(note).toHaveText('Rounded up to whole cases of 5: 30 units.');
  await expect(dialog.getByTestId('checkout-total')).toHaveText('$750.00');
  await quantity.press('Enter');
  await expect(quantity).toHaveValue('30');
  await expect(note).toBeVisible();
  await expect(dialog).toBeVisible();
  await expectNoOrders(page, buyer);
  if (SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/checkout-case-pack-1280.png' });

  // Buy pressed straight from the field: likewise, the field shows 30 first.
  await quantity.fill('33');
  await dialog.getByRole('button', { name: 'Buy', exact: true }).click();
  await expect(quantity).toHaveValue('35');
  await expect(note).toHaveText('Rounded up to whole cases of 5: 35 units.');
  await expect(dialog).toBeVisible();
  await expectNoOrders(page, buyer);

  // A step by a whole case says nothing more; the next Buy buys what the field shows.
  await dialog.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(quantity).toHaveValue('40');
  await expect(note).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Buy', exact: true }).click();
  await expect(page).toHaveURL(/\/cart$/);
  const [order] = await ordersOf(page.request, buyer);
  expect(order?.quantity).toBe(40);
});
