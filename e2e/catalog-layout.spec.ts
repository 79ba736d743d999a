import { randomUUID } from 'node:crypto';
import type { Page, TestInfo } from '@playwright/test';
import type { Product } from '@bulkcart/contracts/product';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { expect, newUser, signUpViaApi, test } from './support/fixtures.ts';
import { addProduct } from './support/shop-api.ts';

/**
 * Every catalog page at a phone and a desktop width: nothing may push the page sideways (wide tables
 * scroll inside their own box). A full-page screenshot of each is kept in the test's output folder.
 */
const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

async function expectFitsAndCapture(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

for (const viewport of viewports) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test(`the catalog pages fit the ${viewport.name} screen`, async ({ page, baseURL }, testInfo) => {
      test.setTimeout(90_000);
      await signUpViaApi(page.request, baseURL!, newUser('seller'));

      await page.goto('/myproduct');
      await expect(page.getByText(MESSAGES.noProductFound)).toBeVisible();
      await expectFitsAndCapture(page, testInfo, 'my-products-empty');

      await page.goto('/addproduct');
      await page.getByRole('button', { name: 'Add Product' }).click();
      await expect(page.getByText('Name is required')).toBeVisible();
      await expectFitsAndCapture(page, testInfo, 'add-product-errors');

      const product = await addProduct(page.request, baseURL!, {
        name: `Layout Check ${viewport.name} ${randomUUID().slice(0, 6)} Industrial Shelving Unit With A Long Name`,
        image: '/images/products/does-not-exist.webp',
        image2: '/favicon.svg',
        brandname: 'ForgeWorks',
        category: 'Industrial Machinery & Tools',
        description: 'Five-tier galvanised steel shelving, 300 kg per shelf, bolt-free assembly in ten minutes.',
        Content: 'Dimensions 180 x 90 x 40 cm.\nFinish: galvanised.\nShips in one carton.',
        price: 89,
        rating: 4,
        mainquantity: 640,
        minquantity: 120,
        discount: 10,
      });

      await page.goto('/myproduct');
      // A phone lists compact rows, a desktop cards (docs/product/screens.md, My Product).
      await expect(page.getByRole(viewport.width < 768 ? 'listitem' : 'article', { name: product.name })).toBeVisible();
      await expectFitsAndCapture(page, testInfo, 'my-products');
      await page.getByRole('button', { name: `Delete ${product.name}` }).click();
      await expect(page.getByRole('dialog', { name: MESSAGES.deleteConfirm })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('delete-dialog.png') });
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`/upadateprocuct/${product._id}`);
      await expect(page.getByLabel('Product name')).toHaveValue(product.name);
      await expectFitsAndCapture(page, testInfo, 'update-product');

      await page.goto('/allproduct');
      await expect(page.getByRole('article', { name: product.name })).toBeVisible();
      await expectFitsAndCapture(page, testInfo, 'all-products-cards');

      await page.goto('/allproduct?view=table&available=true');
      // A wide screen shows the table; a phone the same products stacked as a list (whichever is shown).
      const tableEntry = page.getByRole('row').or(page.getByRole('list', { name: 'Products' }).getByRole('listitem'));
      await expect(tableEntry.filter({ hasText: product.name })).toBeVisible();
      await expectFitsAndCapture(page, testInfo, 'all-products-table');

      await page.goto('/categories');
      await expect(page.getByRole('heading', { name: 'Select From Our categories' })).toBeVisible();
      await expectFitsAndCapture(page, testInfo, 'categories-all');
      await page.goto('/Categories?category=Industrial%20Machinery%20%26%20Tools');
      await expect(page.getByRole('article', { name: product.name })).toBeVisible();
      await expectFitsAndCapture(page, testInfo, 'categories-one');

      await page.goto(`/product/${product._id}`);
      await expect(page.getByRole('heading', { name: 'More Information' })).toBeVisible();
      await expectFitsAndCapture(page, testInfo, 'product-detail');
    });
  });
}

test('a product card without a description keeps its rows together beside a taller card', async ({ page, baseURL, signedInUser: _user }) => {
  // Both products carry one fresh word, and the search for it lists only them: products other tests
  // add at the same moment cannot come between them and split them over two rows.
  const word = `crates${randomUUID().slice(0, 8)}`;
  const described = await addProduct(page.request, baseURL!, {
    name: `Garment ${word} lined`,
    description: 'Heavy cotton crates lined for folded garments, stackable six high, sold flat-packed in bundles of ten for the warehouse floor.',
  });
  const bare = await addProduct(page.request, baseURL!, { name: `Garment ${word} bare`, description: '' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/search?q=${word}&sort=newest`);
  const bareCard = page.getByRole('article', { name: bare.name, exact: true });
  const describedCard = page.getByRole('article', { name: described.name, exact: true });
  await expect(bareCard).toBeVisible();
  await expect(describedCard).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(2);
  // Newest first, side by side in one row: the card without a description is stretched to the other's height.
  const [bareBox, describedBox] = [(await bareCard.boundingBox())!, (await describedCard.boundingBox())!];
  expect(Math.abs(bareBox.y - describedBox.y)).toBeLessThan(1);
  expect(Math.abs(bareBox.height - describedBox.height)).toBeLessThan(1);

  // From the top of the 'By:' line to the top of the 'Min Buy Qty' line: one line and the 8 px gap,
  // the same as in the card with a description (a stretched paragraph would push the next one down).
  const rowStep = async (card: typeof bareCard, product: Product) => {
    const by = (await card.getByText(`By: ${product.brandname}`).boundingBox())!;
    const minBuy = (await card.getByText(`Min Buy Qty: ${product.minquantity}`).boundingBox())!;
    return minBuy.y - by.y;
  };
  const describedStep = await rowStep(describedCard, described);
  expect(describedStep).toBeLessThanOrEqual(30);
  expect(Math.abs((await rowStep(bareCard, bare)) - describedStep)).toBeLessThan(1);
  await bareCard.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('search-no-description.png') });
});
