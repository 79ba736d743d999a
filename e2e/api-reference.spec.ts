import { expect, test } from '@playwright/test';

/**
 * The API reference page (/api/docs): a developer opens it and reads the operations of
 * /api/openapi.json, under the page's CSP with nothing refused (docs/decisions/008-api-description.md).
 */
test('the API reference lists the operations of the description, with no CSP violation', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.sourceFile}:${event.lineNumber}`));
  });
  await page.goto('/api/docs');
  // Swagger UI's bundle (the largest script we serve) renders the heading once it has run: waiting on
  // that state, with room for a busy machine, not on a page-load clock.
  await expect(page.getByRole('heading', { name: /BulkCart API/ })).toBeVisible({ timeout: 30_000 });
  const purchase = page.locator('.opblock').filter({ hasText: '/api/order' }).filter({ hasText: 'Buy a product' });
  await expect(purchase).toBeVisible();
  await purchase.locator('.opblock-summary').click();
  await expect(purchase.getByText('Idempotency-Key', { exact: false }).first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
});

test('the description itself is JSON that names every catalog read', async ({ request }) => {
  const response = await request.get('/api/openapi.json');
  expect(response.status()).toBe(200);
  const doc = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/topproduct', '/api/allproduct', '/api/product/{id}']));
});
