import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, newUser, signUpViaApi, test } from './support/fixtures.ts';
import { addProduct } from './support/shop-api.ts';

/**
 * My Product (docs/product/screens.md): stock and SKU on every product, a search box and a stock
 * filter kept in the URL, 100 a page on desktop, compact rows on a phone. Stock is "Sold out" below
 * one minimum order, "Low" below five of them, else "In stock".
 */

const SCREENSHOTS = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

/** A new seller with three products, one in each stock state; newest (listed first) last here. */
async function sellerWithThreeProducts(page: Page, baseURL: string) {
  const tag = randomUUID().slice(0, 6).toUpperCase();
  await signUpViaApi(page.request, baseURL, newUser('seller'));
  const kettle = await addProduct(page.request, baseURL, { name: `Steel Kettle ${tag}`, sku: `KT-${tag}`, mainquantity: 1_000, minquantity: 10, price: 12 });
  const descaler = await addProduct(page.request, baseURL, { name: `Kettle Descaler ${tag}`, sku: `DS-${tag}`, mainquantity: 30, minquantity: 10, price: 4.5 });
  const cups = await addProduct(page.request, baseURL, { name: `Paper Cups ${tag}`, mainquantity: 5, minquantity: 10, price: 2 });
  return { tag, kettle, descaler, cups };
}

test('the seller sees stock and SKU, filters by stock, searches by word or SKU, and gets 100 a page on desktop', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const { tag, kettle, descaler, cups } = await sellerWithThreeProducts(page, baseURL!);
  await page.setViewportSize({ width: 1280, height: 900 });

  const firstPage = page.waitForRequest((request) => /\/api\/products\/[^/?]+\?/.test(request.url()));
  await page.goto('/myproduct');
  expect(new URL((await firstPage).url()).searchParams.get('limit')).toBe('100');
  await expect(page).toHaveTitle('My Product');
  const cards = page.getByTestId('product-card');
  await expect(cards.getByRole('heading')).toHaveText([cups.name, descaler.name, kettle.name]);
  const kettleCard = page.getByRole('article', { name: kettle.name });
  await expect(kettleCard.getByTestId('product-stock')).toHaveText('Stock: 1,000 units In stock');
  await expect(kettleCard.getByTestId('product-sku')).toHaveText(`SKU KT-${tag}`);
  await expect(page.getByRole('article', { name: descaler.name }).getByTestId('product-stock')).toHaveText('Stock: 30 units Low');
  await expect(page.getByRole('article', { name: cups.name }).getByTestId('product-stock')).toHaveText('Stock: 5 units Sold out');
  await expect(page.getByRole('article', { name: cups.name }).getByTestId('product-sku')).toHaveText('No SKU');

  // The stock filter, one state at a time, in the URL.
  const stockFilter = page.getByRole('navigation', { name: 'Filter by stock' });
  await stockFilter.getByRole('button', { name: 'Low' }).click();
  await expect(page).toHaveURL(/\/myproduct\?stock=low$/);
  await expect(cards.getByRole('heading')).toHaveText([descaler.name]);
  await stockFilter.getByRole('button', { name: 'Sold out' }).click();
  await expect(cards.getByRole('heading')).toHaveText([cups.name]);
  await stockFilter.getByRole('button', { name: 'In stock' }).click();
  await expect(cards.getByRole('heading')).toHaveText([kettle.name]);
  await stockFilter.getByRole('button', { name: 'All' }).click();
  await expect(cards).toHaveCount(3);

  // The search: words as prefixes, or the start of a SKU; with the stock filter it narrows further.
  const search = page.getByRole('searchbox', { name: 'Search your products' });
  await search.fill('kettle');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/myproduct\?q=kettle$/);
  await expect(cards.getByRole('heading')).toHaveText([descaler.name, kettle.name]);
  await stockFilter.getByRole('button', { name: 'In stock' }).click();
  await expect(cards.getByRole('heading')).toHaveText([kettle.name]);
  await stockFilter.getByRole('button', { name: 'All' }).click();
  await search.fill(`ds-${tag.toLowerCase()}`);
  await page.getByRole('main').getByRole('button', { name: 'Search', exact: true }).click();
  await expect(cards.getByRole('heading')).toHaveText([descaler.name]);
  await search.fill(`nothing-like-${tag}`);
  await search.press('Enter');
  await expect(page.getByTestId('no-match')).toContainText('None of your products match.');
  await page.getByRole('button', { name: 'Show all your products' }).click();
  await expect(page).toHaveURL(/\/myproduct$/);
  await expect(search).toHaveValue('');
  await expect(cards).toHaveCount(3);
  await page.screenshot({ path: `${SCREENSHOTS}my-products-1280.png` });
});

test('on a phone each product is a compact row with its SKU, price, stock, Update and Delete', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const { tag, kettle, descaler, cups } = await sellerWithThreeProducts(page, baseURL!);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/myproduct');
  const rows = page.getByRole('list', { name: 'Your products' }).getByRole('listitem');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('product-card')).toHaveCount(0);
  const row = page.getByRole('listitem', { name: descaler.name });
  await expect(row.getByTestId('product-sku')).toHaveText(`SKU DS-${tag} · $4.50`);
  await expect(row.getByTestId('product-stock')).toHaveText('30 units Low');
  await expect(page.getByRole('listitem', { name: cups.name }).getByTestId('product-sku')).toHaveText('No SKU · $2.00');
  // A row is far shorter than a card: three fit on the first screen with the search and the filter.
  for (const name of [cups.name, descaler.name, kettle.name]) await expect(page.getByRole('listitem', { name })).toBeInViewport();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await page.getByRole('navigation', { name: 'Filter by stock' }).getByRole('button', { name: 'Sold out' }).click();
  await expect(rows).toHaveCount(1);
  await page.getByRole('navigation', { name: 'Filter by stock' }).getByRole('button', { name: 'All' }).click();
  await expect(rows).toHaveCount(3);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${SCREENSHOTS}my-products-390.png` });

  await row.getByRole('link', { name: `Update ${descaler.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/upadateprocuct/${descaler._id}$`));
});
