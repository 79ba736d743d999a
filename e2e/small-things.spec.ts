import { expect, test } from './support/fixtures.ts';
import { expectNoticeFrom } from './support/notices.ts';
import { addProduct, addProductOfAnotherSeller, featureOwnProducts, placeOrder } from './support/shop-api.ts';

/** Small things a new user tripped over: quantity wording, one's own product, cancelled orders. */

test('the seller sees "This is your product" instead of Buy Now on their own product', async ({ page, baseURL, signedInUser: seller }) => {
  const product = await addProduct(page.request, baseURL!);
  await page.goto(`/product/${product._id}`);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await expect(page.getByRole('button', { name: 'This is your product' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Buy Now' })).toHaveCount(0);

  // The same on its featured card.
  await featureOwnProducts(page, seller);
  await page.goto('/');
  const card = page.getByRole('article', { name: product.name, exact: true });
  await expect(card.getByRole('button', { name: 'This is your product' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Buy Now' })).toHaveCount(0);
});

test('a cancelled order stays on the buyer\'s page under "Cancelled"; quantities read "units" but in the spec\'s Cart table', async ({
  page,
  baseURL,
  signedInUser: _buyer,
}) => {
  const { product, dispose } = await addProductOfAnotherSeller(baseURL!, { minquantity: 1 });
  await dispose();
  const order = await placeOrder(page.request, baseURL!, product._id, 12);

  await page.goto('/cart');
  const row = page.getByTestId('order-row').filter({ hasText: order.number });
  await expect(row).toContainText('12 unite');
  await row.getByRole('button', { name: `Cancel order of ${product.name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Cancel order ${order.number}?` });
  await expect(confirm).toContainText('12 units of');
  await expectNoticeFrom(page, 'Order canceled', () => confirm.getByRole('button', { name: 'Cancel order' }).click());
  await expect(row).toHaveCount(0);

  const filter = page.getByRole('navigation', { name: 'Show orders' });
  await expect(filter.getByRole('button', { name: 'Orders' })).toHaveAttribute('aria-pressed', 'true');
  await filter.getByRole('button', { name: 'Cancelled' }).click();
  await expect(page).toHaveURL(/\/cart\?status=cancelled$/);
  await expect(filter.getByRole('button', { name: 'Cancelled' })).toHaveAttribute('aria-pressed', 'true');
  await expect(row.getByTestId('order-status')).toHaveText('Cancelled');
  await expect(row.getByRole('button', { name: /Cancel order/ })).toHaveCount(0);
  // A reload keeps the filter.
  await page.reload();
  await expect(page.getByTestId('order-row').filter({ hasText: order.number })).toBeVisible();

  // The order page's invoice reads units.
  await row.getByRole('link', { name: `View order ${order.number}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(order.number) })).toBeVisible();
  await expect(page.getByRole('table').getByRole('cell', { name: '12 units' })).toBeVisible();
});
