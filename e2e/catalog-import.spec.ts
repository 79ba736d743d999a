import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { addProduct } from './support/shop-api.ts';

/** Sets the price cell of the row with this SKU, as a seller editing the file in a spreadsheet would. */
function setPrice(csv: string, sku: string, price: string): string {
  const lines = csv.split('\r\n');
  const header = lines[0]!.replace(/^\uFEFF/, '').split(',');
  const at = header.indexOf('price');
  return lines
    .map((line) => {
      if (!line.startsWith(`${sku},`)) return line;
      const cells = line.split(',');
      cells[at] = price;
      return cells.join(',');
    })
    .join('\r\n');
}

async function expectShownPrice(page: Page, productId: string, price: string): Promise<void> {
  await page.goto(`/product/${productId}`);
  await expect(page.getByTestId('product-price')).toContainText(price);
}

test('a seller exports the catalog, changes two prices in the file, reviews the two updates, applies them and undoes the import', async ({
  page,
  baseURL,
  signedInUser,
}) => {
  expect(signedInUser.email).toContain('@');
  const tag = randomUUID().slice(0, 6).toUpperCase();
  // Plain texts (no commas or quotes), so the test can edit the file line by line.
  const fields = { description: 'Double-wall cartons', discount: 0, Content: '' };
  const first = await addProduct(page.request, baseURL!, { ...fields, sku: `CI-${tag}-1`, price: 12 });
  const second = await addProduct(page.request, baseURL!, { ...fields, sku: `CI-${tag}-2`, price: 5.5 });
  await addProduct(page.request, baseURL!, { ...fields, sku: `CI-${tag}-3`, price: 3 });

  await page.goto('/myproduct');
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('catalog.csv');
  const exported = await readFile((await download.path())!, 'utf8');
  expect(exported).toContain(`CI-${tag}-1,`);
  const edited = setPrice(setPrice(exported, `CI-${tag}-1`, '11.25'), `CI-${tag}-2`, '4.80');

  await page.getByRole('link', { name: 'Import CSV' }).click();
  await expect(page.getByRole('heading', { name: 'Import products from CSV' })).toBeVisible();
  // A file that is not CSV is refused in plain words before anything is sent.
  await page.getByLabel('Choose a CSV file').setInputFiles({ name: 'catalog.xlsx', mimeType: 'application/vnd.ms-excel', buffer: Buffer.from('PK') });
  await expect(page.getByRole('alert')).toContainText('"catalog.xlsx" is not a CSV file.');

  await page.getByLabel('Choose a CSV file').setInputFiles({ name: 'catalog.csv', mimeType: 'text/csv', buffer: Buffer.from(edited) });
  const job = page.getByTestId('import-job');
  await expect(job).toHaveAttribute('data-status', 'ready', { timeout: 15_000 });
  await expect(page.getByTestId('count-update')).toHaveText('2');
  await expect(page.getByTestId('count-unchanged')).toHaveText('1');
  await expect(page.getByTestId('count-create')).toHaveText('0');
  await expect(page.getByTestId('count-invalid')).toHaveText('0');
  const rows = page.getByTestId('change-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(`CI-${tag}-1`);
  await expect(rows.nth(0)).toContainText('price: 12.00 → 11.25');
  await expect(rows.nth(1)).toContainText('price: 5.50 → 4.80');
  // Nothing has changed yet.
  const jobUrl = page.url();
  await expectShownPrice(page, first._id, '$12.00');

  await page.goto(jobUrl);
  await page.getByRole('button', { name: 'Apply 2 changes' }).click();
  const confirm = page.getByRole('dialog', { name: 'Apply 2 changes to your catalog?' });
  await confirm.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('import-result')).toHaveText('Applied: 0 created, 2 updated. Unchanged rows and rows with errors were not touched.', {
    timeout: 15_000,
  });
  await expectShownPrice(page, first._id, '$11.25');
  await expectShownPrice(page, second._id, '$4.80');

  await page.goto(jobUrl);
  await page.getByRole('button', { name: 'Undo this import' }).click();
  await page.getByRole('dialog', { name: 'Undo this import?' }).getByRole('button', { name: 'Undo import' }).click();
  await expect(page.getByTestId('import-result')).toHaveText('This import was undone: your catalog is back as it was before it.');
  await expectShownPrice(page, first._id, '$12.00');
  await expectShownPrice(page, second._id, '$5.50');
});
