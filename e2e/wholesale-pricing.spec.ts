import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { Product } from '@bulkcart/contracts/product';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { expect, newUser, saveShipTo, signUpViaApi, test, type E2EUser } from './support/fixtures.ts';
import { expectNoticeFrom } from './support/notices.ts';
import { ordersOf } from './support/shop-api.ts';
import { verifyBusinessViaApi } from './support/verification.ts';

/** The fields every listing needs, typed into the add form as a seller would. */
async function fillListing(page: Page, fields: { name: string; brand: string; stock: string; min: string; image: string }): Promise<void> {
  await page.goto('/addproduct');
  await page.getByLabel('Product name').fill(fields.name);
  await page.getByLabel('Brand name').fill(fields.brand);
  await page.getByLabel('Category', { exact: true }).selectOption('Office Supplies & Stationery');
  await page.getByLabel('Main quantity (in stock)').fill(fields.stock);
  await page.getByLabel('Min buy quantity').fill(fields.min);
  await page.getByLabel('Image URL', { exact: true }).fill(fields.image);
}

async function findOwnProduct(page: Page, seller: E2EUser, name: string): Promise<Product> {
  const response = await page.request.get(`/api/products/${encodeURIComponent(seller.email)}`);
  const product = ((await response.json()) as Product[]).find((p) => p.name === name);
  if (!product) throw new Error(`${name} is not among the seller's products`);
  return product;
}

test('a seller prices by the case with volume breaks; a buyer sees the ladder, steps by the case and pays the break shown', async ({
  page,
  baseURL,
  signedInUser: seller,
}) => {
  const name = `E2E Gel Pens ${randomUUID().slice(0, 6)}`;
  await fillListing(page, { name, brand: 'InkWell', stock: '1000', min: '24', image: '/images/products/gel-pens-12-pack.webp' });
  await page.getByLabel('Price ($ per unit)').fill('10');
  await page.getByLabel('Case pack (units per case)').fill('12');
  await page.getByLabel('Rating (1 to 5)').fill('4');
  await page.getByLabel('Short description').fill('Smooth gel pens, boxed by the dozen.');

  await page.getByRole('button', { name: 'Add a volume break' }).click();
  await page.getByLabel('Break 1: from quantity').fill('60');
  await page.getByLabel('Break 1: price ($ per unit)').fill('9');
  await page.getByRole('button', { name: 'Add a volume break' }).click();
  await page.getByLabel('Break 2: from quantity').fill('120');
  // A dearer second break is refused by the shared schema, on that field.
  await page.getByLabel('Break 2: price ($ per unit)').fill('9.5');
  await page.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByText("Must be less than the previous break's price ($9)")).toBeVisible();
  await expect(page.getByLabel('Break 2: price ($ per unit)')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Break 2: price ($ per unit)').fill('8.10');
  await expectNoticeFrom(page, MESSAGES.productAdded, () => page.getByRole('button', { name: 'Add Product' }).click());

  const product = await findOwnProduct(page, seller, name);
  expect(product).toMatchObject({
    price: 10,
    casepack: 12,
    tiers: [
      { minquantity: 60, price: 9 },
      { minquantity: 120, price: 8.1 },
    ],
  });

  // A buyer (another business: nobody may buy their own product) sees the ladder on the detail page.
  await page.context().clearCookies();
  const buyer = newUser('buyer');
  await signUpViaApi(page.request, baseURL!, buyer);
  await saveShipTo(page.request, baseURL!);
  // A verified business: volume breaks go to verified buyers (docs/decisions/014-business-verification.md).
  await verifyBusinessViaApi(page.request, baseURL!, buyer.email);
  await page.goto(`/product/${product._id}`);
  await expect(page.getByTestId('product-price').getByTestId('from-price')).toHaveText('from $8.10');
  const table = page.getByTestId('volume-pricing');
  await expect(table.getByRole('row')).toHaveText(['QuantityUnit priceYou save', '24–59$10.00—', '60–119$9.00$1.00 (10%)', '120+$8.10$1.90 (19%)']);
  await expect(table.locator('tr[aria-current="true"]')).toHaveText('24–59$10.00—');

  const quantity = page.getByRole('spinbutton', { name: 'Quantity' });
  await expect(quantity).toHaveAttribute('step', '12');
  await quantity.fill('70');
  await quantity.blur();
  await expect(quantity).toHaveValue('72');
  await expect(table.locator('tr[aria-current="true"]')).toHaveText('60–119$9.00$1.00 (10%)');

  await page.getByRole('button', { name: 'Buy Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Checkout' });
  const stepper = dialog.getByRole('spinbutton', { name: 'Quantity' });
  await expect(stepper).toHaveValue('72');
  await expect(dialog.getByTestId('checkout-unit-price')).toHaveText('$9.00 (volume price from 60)');
  await expect(dialog.getByTestId('checkout-total')).toHaveText('$648.00');
  await expect(dialog.getByTestId('checkout-saving')).toHaveText('$72.00');
  await expect(dialog.getByTestId('checkout-nudge')).toHaveText('Add 48 more to pay $8.10 each');

  // The stepper moves by whole cases, and the price follows it with no request per step.
  let pricingRequests = 0;
  page.on('request', (request) => {
    // The navbar bell's poll is not about pricing.
    if (request.url().includes('/api/') && !request.url().includes('/api/notifications')) pricingRequests++;
  });
  await dialog.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(stepper).toHaveValue('84');
  await expect(dialog.getByTestId('checkout-nudge')).toHaveText('Add 36 more to pay $8.10 each');
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(stepper).toHaveValue('48');
  await expect(dialog.getByTestId('checkout-unit-price')).toHaveText('$10.00');
  await expect(dialog.getByTestId('checkout-saving')).toHaveCount(0);
  for (let i = 0; i < 6; i++) await dialog.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(stepper).toHaveValue('120');
  await expect(dialog.getByTestId('checkout-unit-price')).toHaveText('$8.10 (volume price from 120)');
  await expect(dialog.getByTestId('checkout-total')).toHaveText('$972.00');
  await expect(dialog.getByTestId('checkout-nudge')).toHaveCount(0);
  expect(pricingRequests).toBe(0);

  await dialog.getByRole('button', { name: 'Buy', exact: true }).click();
  await expect(page).toHaveURL(/\/cart$/);
  const row = page.getByTestId('order-row').filter({ hasText: name });
  await expect(row.getByTestId('order-unit-price')).toHaveText('$8.10 each$10.00');
  await expect(row.getByTestId('order-total')).toHaveText('$972.00');
  const [order] = await ordersOf(page.request, buyer);
  expect(order).toMatchObject({ quantity: 120, unitPrice: 8.1, total: 972, listUnitPrice: 10, tierMinquantity: 120 });

  // The seller's order desk marks the order of a verified business (docs/decisions/014-business-verification.md).
  await page.context().clearCookies();
  const back = await page.request.post('/api/auth/sign-in/email', { data: { email: seller.email, password: seller.password }, headers: { origin: baseURL! } });
  expect(back.status(), await back.text()).toBe(200);
  await page.goto('/sales');
  const card = page.getByTestId('sale-card').filter({ hasText: name });
  await expect(card.getByTestId('buyer-name')).toHaveText(buyer.name);
  await expect(card.getByTestId('buyer-verified')).toHaveText('Verified');
  if (process.env.E2E_SCREENSHOTS === '1') {
    await page.screenshot({ path: 'docs/screenshots/order-desk-verified-1280.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/screenshots/order-desk-verified-390.png' });
  }
});

test('the product form warns about listings nobody can buy, and My Product marks them', async ({ page, signedInUser: seller }) => {
  const name = `E2E Unbuyable ${randomUUID().slice(0, 6)}`;
  await fillListing(page, { name, brand: 'BoxCo', stock: '5', min: '10', image: '/favicon.svg' });
  const warnings = page.getByTestId('listing-warnings');
  await expect(warnings).toContainText('No price yet: buyers cannot buy this product until it has one.');
  await expect(warnings).toContainText('Stock is below the min buy quantity: buyers will see "Out of stock".');
  // A warning, not a refusal: the listing is saved.
  await expectNoticeFrom(page, MESSAGES.productAdded, () => page.getByRole('button', { name: 'Add Product' }).click());
  await findOwnProduct(page, seller, name);

  await page.goto('/myproduct');
  const card = page.getByRole('article', { name, exact: true });
  await expect(card.getByTestId('unbuyable')).toHaveText('Buyers cannot buy this: no price and stock below the min buy quantity.');
  await expect(card.getByTestId('out-of-stock')).toHaveText('Out of stock');
});
