import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, newUser, saveShipTo, signUpViaApi, test } from './support/fixtures.ts';
import { placeOrder } from './support/shop-api.ts';

/**
 * Unlisted products (docs/product/rules.md): an import's new product is ordered, the import is undone,
 * and the product is unlisted rather than deleted: gone for buyers, marked in My Product, listed again
 * by its seller.
 */

const SCREENSHOTS = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const HEADER = 'sku,name,category,brandname,price,minquantity,casepack,mainquantity,discount,tiers,description,image,image2,image3,content';

test('undoing an import unlists its ordered product; the seller sees it marked and lists it again', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const tag = randomUUID().slice(0, 6).toUpperCase();
  const name = `Harbor Lantern ${tag}`;
  await signUpViaApi(page.request, baseURL!, newUser('seller'));

  await page.goto('/myproduct/import');
  const csv = `${HEADER}\r\nUL-${tag},${name},Home & Kitchen Appliances,Tidewell,9.00,10,1,500,0,,Brass lantern,/images/products/kettle.webp,,,\r\n`;
  await page.getByLabel('Choose a CSV file').setInputFiles({ name: 'lanterns.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('import-job')).toHaveAttribute('data-status', 'ready', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Apply 1 change' }).click();
  await page.getByRole('dialog', { name: 'Apply 1 change to your catalog?' }).getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('import-result')).toContainText('Applied: 1 created', { timeout: 15_000 });
  const jobUrl = page.url();

  // A buyer orders it while it is listed.
  const buyerContext = await browser.newContext({ baseURL });
  const buyer = buyerContext.request;
  try {
    await signUpViaApi(buyer, baseURL!, newUser('buyer'));
    await saveShipTo(buyer, baseURL!);
    const found = (await (await buyer.get(`/api/skus?q=UL-${tag}`)).json()) as Array<{ productId: string }>;
    expect(found).toHaveLength(1);
    const productId = found[0]!.productId;
    await placeOrder(buyer, baseURL!, productId, 10);

    await page.goto(jobUrl);
    await page.getByRole('button', { name: 'Undo this import' }).click();
    const confirm = page.getByRole('dialog', { name: 'Undo this import?' });
    await expect(confirm).toContainText('those already ordered are unlisted instead');
    await confirm.getByRole('button', { name: 'Undo import' }).click();
    await expect(page.getByText('Import undone: 0 restored, 0 removed, 1 unlisted because they have been ordered (see My Product).')).toBeVisible();

    // Gone for buyers: its page is the missing product's (the buyer is signed in), and quick order no longer finds it.
    expect((await buyer.get(`/api/product/${productId}`)).status()).toBe(404);
    expect(await (await buyer.get(`/api/skus?q=UL-${tag}`)).json()).toEqual([]);
    const buyerPage = await buyerContext.newPage();
    await buyerPage.goto(`/product/${productId}`);
    await expect(buyerPage.getByRole('alert')).toContainText('This product does not exist or has been removed.');
    await buyerPage.close();

    // Marked in My Product, on a phone and on a desktop.
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/myproduct');
      const mark = page.getByTestId('unlisted');
      await expect(mark).toHaveCount(1);
      await expect(mark).toContainText('Unlisted');
      await expect(mark).toContainText('Buyers cannot see or buy this.');
      await expect(page.getByRole('link', { name: `Update ${name}` })).toHaveCount(0);
      await page.screenshot({ path: `${SCREENSHOTS}my-products-unlisted-${width}.png` });
    }

    await page.getByRole('button', { name: `List ${name} again` }).click();
    await expect(page.getByText(`${name} is listed again.`)).toBeVisible();
    await expect(page.getByTestId('unlisted')).toHaveCount(0);
    await expect(page.getByRole('link', { name: `Update ${name}` })).toBeVisible();
    expect((await buyer.get(`/api/product/${productId}`)).status()).toBe(200);
  } finally {
    await buyerContext.close();
  }
});
