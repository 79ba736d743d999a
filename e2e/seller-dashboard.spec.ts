import { readFile } from 'node:fs/promises';
import { request as playwrightRequest, type Page } from '@playwright/test';
import type { Dashboard } from '@bulkcart/contracts/dashboard';
import { axeFindings, describeFindings } from './support/axe.ts';
import { expect, newUser, saveShipTo, signUpViaApi, test } from './support/fixtures.ts';
import { addProduct, placeOrder } from './support/shop-api.ts';

/**
 * The seller's dashboard: from the navbar, what needs doing (linked to the filtered desk), the
 * figures against the previous period, the chart's table and CSV, the orders export; no axe finding;
 * phone and desktop screenshots.
 */

// axe-core is injected as a script, which the page's CSP would refuse.
test.use({ bypassCSP: true });

const SHOTS = process.env.E2E_SCREENSHOTS === '1';

async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

test('the seller opens the dashboard, switches period, reads the chart as a table, downloads the CSVs and follows "to ship" to the desk', async ({
  page,
  baseURL,
  signedInUser: _seller,
}, testInfo) => {
  // A product at $12.00 and two orders of it from a buyer: 5 units ($60.00, then accepted) and 10 ($120.00).
  const product = await addProduct(page.request, baseURL!, { price: 12, discount: 0, mainquantity: 100, minquantity: 5, name: 'Dashboard Crates' });
  const buyerApi = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } });
  await signUpViaApi(buyerApi, baseURL!, newUser('buyer'));
  await saveShipTo(buyerApi, baseURL!);
  const accepted = await placeOrder(buyerApi, baseURL!, product._id, 5);
  await placeOrder(buyerApi, baseURL!, product._id, 10);
  await buyerApi.dispose();
  expect((await page.request.post(`/api/sales/${accepted._id}/accept`, { headers: { origin: baseURL! }, data: {} })).status()).toBe(200);

  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL('/dashboard');
  await expect(page).toHaveTitle('wholesale-platform-Dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  const queue = page.getByRole('region', { name: 'Needs doing now' });
  await expect(queue.getByRole('link', { name: '1 order to accept' })).toBeVisible();
  await expect(queue.getByRole('link', { name: '1 order to ship' })).toBeVisible();
  await expect(queue.getByRole('link', { name: '0 orders late' })).toBeVisible();

  const figures = page.getByRole('list', { name: 'Key figures' });
  await expect(figures.getByRole('listitem').filter({ hasText: 'Net sales' })).toContainText('$180.00');
  await expect(figures.getByRole('listitem').filter({ hasText: 'Net sales' })).toContainText('New this period');
  await expect(figures.getByRole('listitem').filter({ hasText: 'Average order' })).toContainText('$90.00');
  await expect(page.getByRole('region', { name: 'Top products' })).toContainText('Dashboard Crates');

  const findings = await axeFindings(page);
  expect(findings, describeFindings(findings)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('dashboard-1280.png'), fullPage: true });
  if (SHOTS) await page.screenshot({ path: 'docs/screenshots/dashboard-1280.png', fullPage: true });

  // Another period: the URL says which, and the pressed button too.
  const week = page.getByRole('group', { name: 'Period' }).getByRole('button', { name: '7 days' });
  await week.click();
  await expect(page).toHaveURL('/dashboard?period=7d');
  await expect(week).toHaveAttribute('aria-pressed', 'true');
  const today = new Date().toISOString().slice(0, 10);
  const answer = (await (await page.request.get('/api/seller/dashboard?period=7d')).json()) as Dashboard;
  expect(answer.series).toHaveLength(7);

  // The chart's figures as a table, one click away.
  const chart = page.getByRole('region', { name: 'Net sales' });
  await chart.getByRole('button', { name: 'Show as table' }).click();
  const table = chart.getByRole('table');
  await expect(table).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(8);
  await expect(table.getByRole('row').last()).toContainText('$180.00');
  await expect(chart.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true');

  const series = await downloadText(page, () => chart.getByRole('link', { name: 'Download CSV' }).click());
  expect(series.name).toBe('sales-7d.csv');
  expect(series.text).toContain('Start,Net sales,Orders');
  expect(series.text).toContain(`${today},180.00,2`);

  const orders = await downloadText(page, () => page.getByRole('link', { name: 'Download orders CSV' }).click());
  expect(orders.name).toMatch(/^orders-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(orders.text.split('\n').filter((line) => line.includes('Dashboard Crates'))).toHaveLength(2);

  // On a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const phoneFindings = await axeFindings(page);
  expect(phoneFindings, describeFindings(phoneFindings)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('dashboard-390.png'), fullPage: true });
  if (SHOTS) await page.screenshot({ path: 'docs/screenshots/dashboard-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // "To ship" opens the desk filtered to accepted orders, with the accepted one on it.
  await queue.getByRole('link', { name: '1 order to ship' }).click();
  await expect(page).toHaveURL('/sales?status=accepted');
  await expect(page.locator(`[data-order-number="${accepted.number}"]`)).toBeVisible();

  // "Late" opens the desk on its Late tab; the accepted order is within its ship-by date, so not on it.
  await page.goBack();
  await queue.getByRole('link', { name: '0 orders late' }).click();
  await expect(page).toHaveURL('/sales?late=true');
  await expect(page.getByTestId('sales-tab-late')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('sales-tab-late')).toContainText('0');
  await expect(page.getByTestId('sales-empty')).toHaveText('No late orders: everything accepted is within its ship-by date.');
});

test("the demo seller's dashboard is alive: months of sales, repeat shops, late and expired orders", async ({ page, baseURL }, testInfo) => {
  const signIn = await page.request.post('/api/auth/sign-in/email', {
    headers: { origin: baseURL! },
    data: { email: 'seller@bulkcart.demo', password: 'DemoSeller1' },
  });
  expect(signIn.status()).toBe(200);
  await page.goto('/dashboard?period=90d');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const answer = (await (await page.request.get('/api/seller/dashboard?period=90d')).json()) as Dashboard;
  expect(answer.kpis.orders).toBeGreaterThan(50);
  expect(answer.kpis.repeatBuyers).toBeGreaterThan(0);
  expect(answer.fulfilment.shippedLate).toBeGreaterThan(0);
  expect(answer.fulfilment.expiredUnaccepted).toBeGreaterThan(0);
  expect(answer.series.filter((p) => p.orders > 0).length).toBeGreaterThan(10);
  await expect(page.getByRole('region', { name: 'Top products' }).getByRole('row')).toHaveCount(answer.topProducts.length + 1);
  const findings = await axeFindings(page);
  expect(findings, describeFindings(findings)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('demo-dashboard-1280.png'), fullPage: true });
  if (SHOTS) await page.screenshot({ path: 'docs/screenshots/dashboard-demo-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('demo-dashboard-390.png'), fullPage: true });
  if (SHOTS) await page.screenshot({ path: 'docs/screenshots/dashboard-demo-390.png', fullPage: true });
});
