import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { request as playwrightRequest, type Browser, type Page } from '@playwright/test';
import type { Product } from '@bulkcart/contracts/product';
import { expect, newUser, signUpViaApi, test, type E2EUser } from './support/fixtures.ts';
import { productOfAnotherSeller } from './support/shop-api.ts';
import { businessBody, DEMO_OPERATOR, findPending, operatorContext, permitPdf } from './support/verification.ts';

/**
 * Business verification end to end (docs/decisions/014-business-verification.md): a new buyer pays the
 * base price and is nudged, submits a permit with a progress bar, the demo operator approves it in the
 * queue, and the buyer's prices on the detail page change.
 */

const SCREENSHOTS = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

/** A product of another business (nobody may buy their own) with the ladder of docs/decisions/011: $10 base, $9 from 100, $8.10 from 500. */
async function listLadder(baseURL: string): Promise<Product> {
  return productOfAnotherSeller(baseURL, {
    name: `E2E Verified Kettle ${randomUUID().slice(0, 6)}`,
    image: '/images/products/gel-pens-12-pack.webp',
    brandname: 'HomeChef',
    category: 'Office Supplies & Stationery',
    mainquantity: 100_000,
    minquantity: 20,
    price: 10,
    discount: 0,
    rating: 4,
    description: 'Stainless steel kettle, boxed for resale.',
    tiers: [
      { minquantity: 100, price: 9 },
      { minquantity: 500, price: 8.1 },
    ],
  });
}

async function fillBusinessForm(page: Page, legalName: string): Promise<void> {
  await page.getByLabel('Legal business name').fill(legalName);
  await page.getByLabel('Business type').selectOption('online_seller');
  await page.getByLabel('Tax or reseller permit number').fill('SR-2026-0042');
  await page.getByLabel('Issuing region').fill('California');
  const nextYear = new Date();
  nextYear.setUTCFullYear(nextYear.getUTCFullYear() + 1);
  await page.getByLabel('Permit expiry date').fill(nextYear.toISOString().slice(0, 10));
  await page.getByLabel('Company').fill(legalName);
  await page.getByLabel('Address line 1').fill('5 Main Street');
  await page.getByLabel('City').fill('Oakland');
  await page.getByLabel('State or region').fill('CA');
  await page.getByLabel('Postal code').fill('94607');
  await page.getByLabel('Phone').fill('+1 510 555 0101');
}

async function signInAsOperator(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO_OPERATOR.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_OPERATOR.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  return page;
}

/** The card of `legalName` under the tab of `status` (the pending queue unless told), loading more pages until it shows. */
async function findCard(operator: Page, legalName: string, status: 'pending' | 'verified' | 'rejected' = 'pending') {
  await operator.goto(status === 'pending' ? '/admin/verifications' : `/admin/verifications?status=${status}`);
  await expect(operator.getByRole('heading', { name: 'Verification queue' })).toBeVisible({ timeout: 20_000 });
  let card = operator.getByRole('article', { name: legalName });
  while ((await card.count()) === 0 && (await operator.getByRole('button', { name: 'Load more' }).count()) > 0) {
    await operator.getByRole('button', { name: 'Load more' }).click();
    card = operator.getByRole('article', { name: legalName });
  }
  await expect(card).toBeVisible();
  return card;
}

test('a new buyer uploads a permit with a progress bar, the operator approves it in the queue, and the buyer pays wholesale', async ({
  page,
  browser,
  baseURL,
  signedInUser,
}) => {
  // Two browsers, an upload and a review: more than one page's worth of waiting on a shared machine.
  test.setTimeout(90_000);
  const product = await listLadder(baseURL!);
  const legalName = `E2E Trading ${randomUUID().slice(0, 6)}`;

  // Unverified: the base price at every quantity, and what verifying would give.
  await page.goto(`/product/${product._id}`);
  const table = page.getByTestId('volume-pricing');
  await expect(table.getByRole('row')).toHaveText(['QuantityYour priceVerified businesses', '20–99$10.00$10.00', '100–499$10.00$9.00', '500+$10.00$8.10']);
  await expect(page.getByTestId('product-price').getByTestId('from-price')).toHaveCount(0);
  await expect(page.getByTestId('verify-nudge')).toHaveText('Verified businesses pay $8.10 at 500+. Verify your business');
  // The catalog banner, dismissed, stays dismissed.
  await expect(page.getByTestId('verify-banner')).toBeVisible();
  await page.getByTestId('verify-banner').getByRole('button', { name: 'Dismiss' }).click();
  await page.reload();
  await expect(page.getByTestId('verify-nudge')).toBeVisible();
  await expect(page.getByTestId('verify-banner')).toHaveCount(0);

  await page.getByTestId('verify-nudge').getByRole('link', { name: 'Verify your business' }).click();
  await expect(page).toHaveURL(/\/business$/);
  await expect(page.getByTestId('verification-status')).toHaveText('Not verified');
  await fillBusinessForm(page, legalName);
  await page.getByRole('button', { name: 'Save business details' }).click();
  await expect(page.getByText('Your business details are saved.')).toBeVisible();

  // A hostile file is refused by its bytes, whatever its name.
  const fileInput = page.getByLabel('Upload the document');
  await fileInput.setInputFiles({ name: 'permit.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<html><script>alert(1)</script></html>') });
  await expect(page.getByRole('alert')).toContainText('HTML or SVG');

  // A 2 MB permit: the bar shows the upload's progress, then the profile waits for review.
  const progressSeen: number[] = [];
  await page.exposeFunction('recordProgress', (value: number) => progressSeen.push(value));
  await page.evaluate(() => {
    new MutationObserver(() => {
      const bar = document.querySelector('[data-testid="upload-progress"] progress');
      if (bar) (window as unknown as { recordProgress: (v: number) => void }).recordProgress(Number(bar.getAttribute('value')));
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['value'] });
  });
  await fileInput.setInputFiles({ name: 'permit.pdf', mimeType: 'application/pdf', buffer: permitPdf(2 * 1024 * 1024) });
  // The answer follows the last byte once the server has checked and stored the file.
  await expect(page.getByTestId('upload-progress')).toContainText('Uploaded', { timeout: 20_000 });
  await expect(page.getByTestId('upload-progress').locator('progress')).toHaveAttribute('value', '100');
  expect(progressSeen.length).toBeGreaterThan(0);
  await expect(page.getByTestId('verification-status')).toHaveText('Pending review');
  await expect(page.getByTestId('document-on-file')).toContainText('permit.pdf');

  // The operator finds it in the queue, looks at the document (sandboxed) and approves it.
  const operator = await signInAsOperator(browser, baseURL!);
  const card = await findCard(operator, legalName);
  await expect(card).toContainText(signedInUser.email);
  // The page's CSP must let the viewer in: any violation it reports fails the test.
  await operator.evaluate(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { cspViolations: string[] }).cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  await card.getByRole('button', { name: /Show document/ }).click();
  const frame = card.locator('iframe');
  await expect(frame).toHaveAttribute('src', /^\/api\/admin\/verifications\/[^/]+\/preview$/);
  // Served inline from our origin, sandboxed by the answer's own CSP (the frame attribute would stop the PDF viewer).
  const preview = await operator.request.get((await frame.getAttribute('src'))!);
  expect(preview.status()).toBe(200);
  expect(preview.headers()).toMatchObject({
    'content-type': 'application/pdf',
    'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'self'",
  });
  expect(preview.headers()['content-disposition']).toMatch(/^inline;/);
  await expect(card.getByRole('link', { name: 'Download permit.pdf' })).toHaveAttribute('href', /\/document$/);
  expect(await operator.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(operator.getByRole('article', { name: legalName })).toHaveCount(0);
  await operator.context().close();

  // The buyer's prices change: the breaks apply, the nudge is gone, the badge is in the avatar menu.
  await page.goto(`/product/${product._id}`);
  await expect(table.getByRole('row')).toHaveText(['QuantityUnit priceYou save', '20–99$10.00—', '100–499$9.00$1.00 (10%)', '500+$8.10$1.90 (19%)']);
  await expect(page.getByTestId('product-price').getByTestId('from-price')).toHaveText('from $8.10');
  await expect(page.getByTestId('verify-nudge')).toHaveCount(0);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByTestId('verified-badge')).toHaveText('✓ Verified business');
  await page.keyboard.press('Escape');

  // And the server charges it: 500 units at $8.10.
  const order = await page.request.post('/api/order', { headers: { origin: baseURL! }, data: { productId: product._id, quantity: 500 } });
  expect(await order.json()).toMatchObject({ unitPrice: 8.1, total: 4050 });
});

test('the operator is told "This submission changed since you opened it" when the buyer edits mid-review, and approves what they then see', async ({
  page,
  browser,
  baseURL,
  signedInUser: _buyer,
}) => {
  test.setTimeout(90_000);
  const legalName = `E2E Swapped ${randomUUID().slice(0, 6)}`;
  const headers = { origin: baseURL! };
  expect((await page.request.put('/api/business', { data: businessBody(legalName), headers })).status()).toBe(200);
  const uploaded = await page.request.post('/api/business/document', {
    multipart: { document: { name: 'permit.pdf', mimeType: 'application/pdf', buffer: permitPdf() } },
    headers,
  });
  expect(uploaded.status()).toBe(200);

  const operator = await signInAsOperator(browser, baseURL!);
  const card = await findCard(operator, legalName);
  await expect(card).toContainText('SR-2026-0042');

  // While the operator looks, the buyer changes the permit number.
  const edited = await page.request.put('/api/business', { data: { ...businessBody(legalName), permitNumber: 'SR-2026-9999' }, headers });
  expect(edited.status()).toBe(200);

  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByRole('alert')).toHaveText('This submission changed since you opened it. Look at it again before deciding.');
  // Nothing was decided, and the entry now shows what the buyer submitted.
  await expect(card).toContainText('SR-2026-9999');
  expect(((await (await page.request.get('/api/business')).json()) as { status: string }).status).toBe('pending');

  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(operator.getByRole('article', { name: legalName })).toHaveCount(0);
  await operator.context().close();
  const profile = (await (await page.request.get('/api/business')).json()) as { status: string; profile: { permitNumber: string } };
  expect(profile).toMatchObject({ status: 'verified', profile: { permitNumber: 'SR-2026-9999' } });
});

test('non-operators find no verification queue', async ({ page, signedInUser: _user }) => {
  await page.goto('/admin/verifications');
  await expect(page.getByRole('heading', { name: 'Verification queue' })).toHaveCount(0);
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  const api = await page.request.get('/api/admin/verifications');
  expect(api.status()).toBe(404);
});

test('screenshots: the business profile, the queue and the price nudge at 390 and 1280 px', async ({ page, browser, baseURL, signedInUser: _user }) => {
  test.setTimeout(90_000);
  const product = await listLadder(baseURL!);
  // A submitted profile, so the queue has one to show and the profile shows its document.
  const headers = { origin: baseURL! };
  const legalName = `Screenshot Supplies ${randomUUID().slice(0, 4)}`;
  expect((await page.request.put('/api/business', { data: businessBody(legalName), headers })).status()).toBe(200);
  const uploaded = await page.request.post('/api/business/document', {
    multipart: { document: { name: 'permit.pdf', mimeType: 'application/pdf', buffer: permitPdf() } },
    headers,
  });
  expect(uploaded.status()).toBe(200);
  const operator = await signInAsOperator(browser, baseURL!);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto(`/product/${product._id}`);
    await expect(page.getByTestId('verify-nudge').first()).toBeVisible();
    await page.getByTestId('volume-pricing').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}verification-nudge-${width}.png` });
    await page.goto('/business');
    await expect(page.getByTestId('verification-status')).toBeVisible();
    await page.screenshot({ path: `${SCREENSHOTS}business-profile-${width}.png`, fullPage: true });
    await operator.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await operator.goto('/admin/verifications');
    await expect(operator.getByRole('heading', { name: 'Verification queue' })).toBeVisible({ timeout: 20_000 });
    await operator.screenshot({ path: `${SCREENSHOTS}verification-queue-${width}.png` });
    const card = await findCard(operator, legalName);
    await card.getByRole('button', { name: /Show document/ }).click();
    await expect(card.getByTestId('document-preview')).toBeVisible();
    await card.getByTestId('document-preview').scrollIntoViewIfNeeded();
    await operator.screenshot({ path: `${SCREENSHOTS}verification-document-${width}.png` });
  }
  await operator.context().close();
});

/** A business submitted by a new account of its own (its own request context, closed at once). */
async function submitBusiness(baseURL: string, legalName: string, permitNumber: string): Promise<E2EUser> {
  const context = await playwrightRequest.newContext({ baseURL });
  try {
    const buyer = newUser('permit');
    await signUpViaApi(context, baseURL, buyer);
    const headers = { origin: baseURL };
    expect((await context.put('/api/business', { data: { ...businessBody(legalName), permitNumber }, headers })).status()).toBe(200);
    const uploaded = await context.post('/api/business/document', {
      multipart: { document: { name: 'permit.pdf', mimeType: 'application/pdf', buffer: permitPdf() } },
      headers,
    });
    expect(uploaded.status(), await uploaded.text()).toBe(200);
    return buyer;
  } finally {
    await context.dispose();
  }
}

test('two businesses with one permit number are flagged in the queue; the operator decides, finds them under Verified and Rejected, and reads both decisions in the audit trail', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const tag = randomUUID().slice(0, 6).toUpperCase();
  const firstName = `E2E First Permit ${tag}`;
  const secondName = `E2E Second Permit ${tag}`;
  const first = await submitBusiness(baseURL!, firstName, `PX-${tag}-7`);
  // The same permit, written another way: compared by its letters and digits, in any case.
  const second = await submitBusiness(baseURL!, secondName, `px ${tag.toLowerCase()} 7`);
  // The revisions the operator decides on, to find in the trail.
  const api = await operatorContext(baseURL!);
  const [firstRevision, secondRevision] = [(await findPending(api, first.email)).revision, (await findPending(api, second.email)).revision];
  await api.dispose();

  const operator = await signInAsOperator(browser, baseURL!);
  const firstCard = await findCard(operator, firstName);
  await expect(firstCard.getByTestId('same-permit')).toHaveText(`Same permit number as 1 other account${secondName} (${second.email}) · California · Pending`);
  const secondCard = await findCard(operator, secondName);
  await expect(secondCard.getByTestId('same-permit')).toContainText(`${firstName} (${first.email})`);

  await secondCard.getByRole('button', { name: 'Reject…' }).click();
  await secondCard.getByLabel('Reason (shown to the buyer)').fill(`Permit PX-${tag}-7 belongs to another business`);
  await secondCard.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(operator.getByRole('article', { name: secondName })).toHaveCount(0);
  await (await findCard(operator, firstName)).getByRole('button', { name: 'Approve' }).click();
  await expect(operator.getByRole('article', { name: firstName })).toHaveCount(0);

  // Reviewed submissions, one tab each; the URL keeps the tab.
  await operator.getByRole('button', { name: 'Rejected' }).click();
  await expect(operator).toHaveURL(/\/admin\/verifications\?status=rejected$/);
  const rejected = await findCard(operator, secondName, 'rejected');
  await expect(rejected.getByTestId('review-outcome')).toHaveText(`RejectedReason: Permit PX-${tag}-7 belongs to another business`);
  await expect(rejected.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(rejected.getByTestId('same-permit')).toContainText(`${firstName} (${first.email}) · California · Verified`);
  const verified = await findCard(operator, firstName, 'verified');
  await expect(verified.getByTestId('review-outcome')).toHaveText('Verified');

  // The trail, from the queue page: newest first, who, what, on which revision.
  await operator.getByRole('link', { name: 'Audit trail' }).click();
  await expect(operator).toHaveURL(/\/admin\/audit$/);
  await expect(operator).toHaveTitle('wholesale-platform-Audit trail');
  await expect(operator.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  const entries = operator.getByTestId('audit-entry');
  const rows = entries.filter({ hasText: first.email }).or(entries.filter({ hasText: second.email }));
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByRole('cell')).toHaveText([/./, DEMO_OPERATOR.email, 'Approved', first.email, '—', firstRevision.slice(0, 8)], {
    useInnerText: true,
  });
  await expect(rows.nth(1).getByRole('cell')).toHaveText(
    [/./, DEMO_OPERATOR.email, 'Rejected', second.email, `Permit PX-${tag}-7 belongs to another business`, secondRevision.slice(0, 8)],
    { useInnerText: true },
  );

  // The account menu leads there too.
  await operator.goto('/');
  await operator.getByRole('button', { name: 'Account menu' }).click();
  await operator.getByRole('link', { name: 'Audit trail' }).click();
  await expect(operator.getByRole('heading', { name: 'Audit trail' })).toBeVisible();

  for (const width of [390, 1280]) {
    await operator.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await operator.goto('/admin/audit');
    await expect(operator.getByTestId('audit-entry').first()).toBeVisible();
    await operator.screenshot({ path: `${SCREENSHOTS}audit-trail-${width}.png` });
    await operator.goto('/admin/verifications?status=rejected');
    await (await findCard(operator, secondName, 'rejected')).scrollIntoViewIfNeeded();
    await operator.screenshot({ path: `${SCREENSHOTS}verification-reviewed-${width}.png` });
  }
  await operator.context().close();
});

test('non-operators find no audit trail', async ({ page, signedInUser: _user }) => {
  await page.goto('/admin/audit');
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toHaveCount(0);
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  expect((await page.request.get('/api/admin/audit')).status()).toBe(404);
});
