import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { Order, Sale } from '@bulkcart/contracts/order';
import { expect, test } from './support/fixtures.ts';
import { addProductOfAnotherSeller, ordersOf, placeOrder } from './support/shop-api.ts';
import { expectNoticeFrom } from './support/notices.ts';

/**
 * The wholesale cart (docs/decisions/017-cart-and-checkout.md) against the real server: lines from two
 * sellers, a minimum not met and then met, one checkout with a PO number placing one order per seller;
 * a paste of SKU rows with a bad one; a delivered order bought again with Reorder.
 */

/** A seller's own browser, signed in with the session of their API context. */
async function sellerPage(browser: Browser, baseURL: string, sellerRequest: APIRequestContext): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: await sellerRequest.storageState(), viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

async function addToCartFromProductPage(page: Page, product: { _id: string; name: string; minquantity: number }) {
  await page.goto(`/product/${product._id}`);
  await expectNoticeFrom(page, { title: 'Added to cart', text: `${product.minquantity} × ${product.name}` }, () =>
    page.getByRole('button', { name: 'Add to cart' }).click(),
  );
}

test('two sellers, a minimum not met, then met; one checkout with a PO number places one order per seller, on the buyer’s cart page and each desk', async ({
  page,
  browser,
  baseURL,
  signedInUser,
}) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 6);
  const acme = await addProductOfAnotherSeller(baseURL!, { name: `Acme Tape ${tag}`, sku: `AT-${tag}`, price: 12, minquantity: 20, mainquantity: 500 });
  const globex = await addProductOfAnotherSeller(baseURL!, { name: `Globex Labels ${tag}`, sku: `GL-${tag}`, price: 5, minquantity: 10, mainquantity: 500 });
  try {
    const minimum = await acme.sellerRequest.put('/api/seller/settings', { headers: { origin: baseURL! }, data: { minimumOrder: 300 } });
    expect(minimum.status()).toBe(200);

    await page.goto(`/product/${acme.product._id}`);
    await expect(page.getByTestId('seller-minimum')).toHaveText('Minimum order from this seller: $300.00');
    await addToCartFromProductPage(page, acme.product);
    await addToCartFromProductPage(page, globex.product);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByTestId('cart-count')).toContainText('2');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Cart/ }).click();
    await expect(page.getByRole('heading', { name: 'Cart', level: 1 })).toBeVisible();
    const groups = page.getByTestId('cart-seller');
    await expect(groups).toHaveCount(2);
    const acmeGroup = page.getByRole('article', { name: `From ${acme.seller.name}` });
    await expect(acmeGroup.getByTestId('seller-short')).toHaveText(`Add $60.00 more from ${acme.seller.name} to check out`);
    await expect(page.getByRole('button', { name: 'Checkout' })).toBeDisabled();
    await expect(page.getByTestId('checkout-blocked')).toHaveText('Fix the problem above to check out.');

    // Add more: 25 rolls reach $300.
    const quantity = acmeGroup.getByLabel('Quantity');
    await quantity.fill('25');
    await quantity.press('Enter');
    await expect(acmeGroup.getByTestId('seller-subtotal')).toHaveText('$300.00');
    await expect(acmeGroup.getByTestId('seller-short')).toHaveCount(0);
    await expect(page.getByTestId('cart-total')).toHaveText('$350.00');

    await page.getByRole('button', { name: 'Checkout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Checkout' });
    await expect(dialog.getByTestId('checkout-total')).toHaveText('$350.00');
    await expect(dialog.getByTestId('checkout-ship-to')).toContainText('E2E Traders Ltd');
    await dialog.getByLabel('PO number (optional)').fill('PO-E2E-77');
    await dialog.getByRole('button', { name: 'Place 2 orders · $350.00' }).click();
    // Among the notices still showing (the "Added to cart" ones may not have timed out yet).
    await expect(page.locator('[popover] .alert h3').filter({ hasText: /^2 orders placed$/ })).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // The cart is empty, the two orders are in the spec's table below it.
    await expect(page.getByTestId('cart-lines-empty')).toBeVisible();
    await expect(page.getByTestId('order-row')).toHaveCount(2);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByTestId('cart-count')).toHaveCount(0);
    const orders = await ordersOf(page.request, signedInUser);
    expect(orders.map((o) => [o.sellerName, o.total, o.poNumber]).sort()).toEqual(
      [
        [acme.seller.name, 300, 'PO-E2E-77'],
        [globex.seller.name, 50, 'PO-E2E-77'],
      ].sort(),
    );

    // Each seller finds their order, with the PO number, on their desk.
    for (const shop of [acme, globex]) {
      const desk = await sellerPage(browser, baseURL!, shop.sellerRequest);
      await desk.goto('/sales');
      const mine = orders.find((o) => o.sellerName === shop.seller.name)!;
      const card = desk.getByTestId('sale-card').and(desk.locator(`[data-order-number="${mine.number}"]`));
      await expect(card).toBeVisible();
      await expect(card.getByTestId('po-number')).toHaveText('PO PO-E2E-77');
      await desk.context().close();
    }
  } finally {
    await acme.dispose();
    await globex.dispose();
  }
});

test('quick order: five pasted SKU rows, one unknown, each checked before adding; the four good ones go into the cart', async ({
  page,
  baseURL,
  signedInUser,
}) => {
  test.setTimeout(60_000);
  expect(signedInUser.email).toContain('@');
  const tag = randomUUID().slice(0, 6).toUpperCase();
  const shop = await addProductOfAnotherSeller(baseURL!, { sku: `QA-${tag}`, name: `Quick A ${tag}`, minquantity: 10 });
  const skus = [`QA-${tag}`];
  try {
    for (const letter of ['B', 'C', 'D']) {
      const response = await shop.sellerRequest.post('/api/addproduct', {
        headers: { origin: baseURL! },
        data: {
          name: `Quick ${letter} ${tag}`,
          sku: `Q${letter}-${tag}`,
          image: '/favicon.svg',
          brandname: 'Quick',
          category: 'Office Supplies & Stationery',
          price: 3,
          mainquantity: 500,
          minquantity: 5,
        },
      });
      expect(response.status()).toBe(201);
      skus.push(`Q${letter}-${tag}`);
    }
    await page.goto('/quick-order');
    await expect(page.getByRole('heading', { name: 'Quick order', level: 1 })).toBeVisible();
    const rows = [`${skus[0]} 20`, `${skus[1]!.toLowerCase()}\t5`, `NOPE-${tag},3`, `${skus[2]};10`, `${skus[3]} 15`].join('\n');
    await page.getByLabel('Paste rows').fill(rows);
    await page.getByRole('button', { name: 'Check pasted rows' }).click();

    const checks = page.getByTestId('quick-row-check');
    await expect(checks).toHaveCount(5);
    await expect(checks.nth(0)).toHaveAttribute('data-kind', 'ok');
    await expect(checks.nth(1)).toHaveAttribute('data-kind', 'ok');
    await expect(checks.nth(2)).toHaveText(`✗ Unknown SKU NOPE-${tag}`);
    await expect(checks.nth(3)).toHaveAttribute('data-kind', 'ok');
    await expect(checks.nth(4)).toHaveAttribute('data-kind', 'ok');
    await expect(checks.nth(0)).toContainText(`Quick A ${tag}`);

    await page.getByTestId('quick-add').click();
    await expect(page.getByTestId('add-results').getByRole('status')).toHaveText('4 of 5 added to the cart.');
    await expect(page.getByTestId('add-result').and(page.locator('[data-status="error"]'))).toHaveText(`✗NOPE-${tag}: Unknown SKU NOPE-${tag}.`);
    // The refused row stays to be fixed; the added ones left.
    await expect(page.getByTestId('quick-row')).toHaveCount(1);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByTestId('cart-count')).toContainText('4');

    await page.goto('/cart');
    await expect(page.getByTestId('cart-line')).toHaveCount(4);
  } finally {
    await shop.dispose();
  }
});

test('reorder: a delivered order’s lines go back into the cart at today’s prices', async ({ page, baseURL, signedInUser }) => {
  test.setTimeout(60_000);
  const shop = await addProductOfAnotherSeller(baseURL!, { price: 9, minquantity: 20, mainquantity: 500 });
  try {
    const order: Order = await placeOrder(page.request, baseURL!, shop.product._id, 40);
    const headers = { origin: baseURL! };
    for (const move of ['accept', 'ship', 'deliver']) {
      const response = await shop.sellerRequest.post(`/api/sales/${order._id}/${move}`, { headers, data: {} });
      expect(response.status(), await response.text()).toBe(200);
    }
    expect(((await (await shop.sellerRequest.get(`/api/sales/${order._id}`)).json()) as Sale).status).toBe('delivered');
    const repriced = await shop.sellerRequest.put(`/api/updateproduct/${shop.product._id}`, {
      headers,
      data: {
        ...shop.product,
        price: 10,
        description: shop.product.description ?? 'Cartons',
        rating: 4,
        image2: undefined,
        image3: undefined,
        Content: undefined,
      },
    });
    expect(repriced.status(), await repriced.text()).toBe(200);

    await page.goto(`/orders/${order._id}`);
    expect(signedInUser.email).toContain('@');
    await page.getByRole('button', { name: `Reorder ${order.number}` }).click();
    const dialog = page.getByRole('dialog', { name: `Reorder ${order.number}` });
    await expect(dialog.getByTestId('add-results').getByRole('status')).toHaveText('All 1 added to the cart.');
    await dialog.getByRole('link', { name: 'Go to cart' }).click();
    const line = page.getByTestId('cart-line');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText('$10.00 each');
    await expect(line.getByLabel('Quantity')).toHaveValue('40');
  } finally {
    await shop.dispose();
  }
});
