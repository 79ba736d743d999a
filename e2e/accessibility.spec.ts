import { request as playwrightRequest, test as base, type APIRequestContext, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import { MESSAGES } from '@bulkcart/contracts/messages';
import type { Order } from '@bulkcart/contracts/order';
import type { Product } from '@bulkcart/contracts/product';
import { axeFindings, describeFindings, type AxeFinding } from './support/axe.ts';
import { expect, newUser, saveShipTo, signUpViaApi } from './support/fixtures.ts';
import { addProduct, placeOrder } from './support/shop-api.ts';
import { businessBody, DEMO_OPERATOR, permitPdf, verifyBusinessViaApi } from './support/verification.ts';

/**
 * axe-core (WCAG 2.0 and 2.1, A and AA) on every page a signed-out visitor, a buyer, a seller and an
 * operator opens, at phone (390 px) and desktop (1280 px) width, with the dialogs, menus, the
 * notification panel and notices open: any violation fails, listed by page state, rule and node.
 *
 * Fast by construction: one browser; the accounts and their orders are made once per worker through
 * the API and reused as storage states; each role and width is one test, so the workers share them.
 */

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;
type Role = 'signed out' | 'buyer' | 'seller' | 'operator';

interface World {
  baseURL: string;
  /** A product with volume breaks, a case pack and a discount (the seller's). */
  tiered: Product;
  /** The buyer's orders of it, one in each state the seller's desk and the cart show. */
  orders: Record<'placed' | 'accepted' | 'shipped' | 'declined', Order>;
  states: Record<Exclude<Role, 'signed out'>, StorageState>;
}

async function apiContext(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
}

/**
 * A seller with a tiered product and a business verification waiting in the queue; a verified buyer
 * with a saved ship-to and four orders of it (placed, accepted, shipped, declined), so both sides have
 * notifications; the demo operator.
 */
async function makeWorld(baseURL: string): Promise<World> {
  const [sellerApi, buyerApi, operatorApi] = await Promise.all([apiContext(baseURL), apiContext(baseURL), apiContext(baseURL)]);
  try {
    await signUpViaApi(sellerApi, baseURL, newUser('a11y-seller'));
    const tiered = await addProduct(sellerApi, baseURL, {
      name: `Kraft Cartons A11y ${Date.now()}`,
      price: 25,
      discount: 10,
      casepack: 5,
      minquantity: 10,
      tiers: [
        { minquantity: 100, price: 22 },
        { minquantity: 500, price: 20 },
      ],
    });
    expect((await sellerApi.put('/api/business', { data: businessBody('A11y Wholesale Ltd') })).status()).toBe(200);
    const uploaded = await sellerApi.post('/api/business/document', {
      multipart: { document: { name: 'permit.pdf', mimeType: 'application/pdf', buffer: permitPdf() } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(200);

    const buyer = newUser('a11y-buyer');
    await signUpViaApi(buyerApi, baseURL, buyer);
    await saveShipTo(buyerApi, baseURL);
    await verifyBusinessViaApi(buyerApi, baseURL, buyer.email);
    const [placed, accepted, shipped, declined] = await Promise.all([0, 1, 2, 3].map(() => placeOrder(buyerApi, baseURL, tiered._id, 10)));
    const move = async (order: Order, action: string, data: object = {}) =>
      expect((await sellerApi.post(`/api/sales/${order._id}/${action}`, { data })).status()).toBe(200);
    await move(accepted!, 'accept');
    await move(shipped!, 'accept');
    await move(shipped!, 'ship', { carrier: 'UPS', tracking: '1Z999' });
    await move(declined!, 'decline', { reason: 'Out of kraft board this month' });

    const signedIn = await operatorApi.post('/api/auth/sign-in/email', { data: DEMO_OPERATOR });
    expect(signedIn.status(), await signedIn.text()).toBe(200);
    return {
      baseURL,
      tiered,
      orders: { placed: placed!, accepted: accepted!, shipped: shipped!, declined: declined! },
      states: { buyer: await buyerApi.storageState(), seller: await sellerApi.storageState(), operator: await operatorApi.storageState() },
    };
  } finally {
    await Promise.all([sellerApi.dispose(), buyerApi.dispose(), operatorApi.dispose()]);
  }
}

const test = base.extend<object, { world: World }>({
  world: [
    // Playwright reads a fixture's dependencies from the destructured first argument: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      await use(await makeWorld(workerInfo.project.use.baseURL!));
    },
    { scope: 'worker', timeout: 60_000 },
  ],
});

/** The page states checked in one test, each with what axe found there. */
class Audit {
  readonly found: Array<{ state: string; findings: AxeFinding[] }> = [];
  constructor(readonly page: Page) {}

  async check(state: string, { clockPaused = false } = {}): Promise<void> {
    const findings = await axeFindings(this.page, { clockPaused });
    this.found.push({ state, findings });
  }

  /** Opens `path` and waits for its heading and for its loading spinners to go. */
  async open(path: string, heading: string | RegExp, state = path): Promise<void> {
    await this.page.goto(path);
    await this.settled(this.page.getByRole('heading', { level: 1, name: heading }));
    await this.check(state);
  }

  async settled(ready: Locator): Promise<void> {
    await expect(ready.first()).toBeVisible();
    await expect(this.page.locator('main .loading:visible')).toHaveCount(0);
  }

  get failures(): string {
    return this.found
      .filter((f) => f.findings.length > 0)
      .map((f) => `● ${f.state}\n  ${describeFindings(f.findings).replace(/\n/g, '\n  ')}`)
      .join('\n');
  }
}

/**
 * A notice, checked while it is up: the page's clock (installed at the start of each test) is paused
 * before `act`, so its 1000 ms timer cannot take it away while axe reads it.
 */
async function checkNotice(audit: Audit, page: Page, state: string, text: string, act: () => Promise<void>): Promise<void> {
  await page.clock.pauseAt(Date.now() + 1_000);
  await act();
  const notice = page.locator('[popover] .alert').filter({ hasText: text.trim() });
  await expect(notice).toBeVisible();
  await audit.check(state, { clockPaused: true });
  await expect(notice, 'the notice was up while axe read the page').toBeVisible();
  await page.clock.resume();
}

/** The account menu and the notification panel, open one after the other. */
async function checkHeaderPanels(audit: Audit, page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await audit.check('account menu open');
  await page.keyboard.press('Escape');
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-panel').getByTestId('notification').first()).toBeVisible();
  await audit.check('notification panel open');
  await page.keyboard.press('Escape');
}

async function checkPhoneMenu(audit: Audit, page: Page, width: number): Promise<void> {
  if (width >= 1024) return;
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Home' })).toBeVisible();
  await audit.check('phone menu open');
  await page.keyboard.press('Escape');
}

const JOURNEYS: Record<Role, (audit: Audit, page: Page, world: World, width: number) => Promise<void>> = {
  async 'signed out'(audit, page, _world, width) {
    await page.goto('/');
    await audit.settled(page.getByTestId('featured-price'));
    await audit.check('/');
    await checkPhoneMenu(audit, page, width);
    // The search box's suggestions (on a phone the magnifier opens the box).
    if (width < 640) await page.locator('label[for="search-box"]').click();
    await page.getByRole('combobox', { name: 'Search products' }).fill('glov');
    await expect(page.getByRole('listbox').getByRole('option').first()).toBeVisible();
    await audit.check('search suggestions open');
    await page.keyboard.press('Escape');

    await audit.open('/login', 'Sign In');
    await audit.open('/signup', 'Sign Up');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect(page.getByText(MESSAGES.nameTooShort)).toBeVisible();
    await audit.check('/signup with field errors');

    await audit.open('/search?q=gloves', 'Results for “gloves”');
    if (width < 1024) {
      await page.getByText('Filters', { exact: true }).click();
      await expect(page.getByRole('group', { name: 'Category' })).toBeVisible();
      await audit.check('/search filters open');
    }
    await audit.open('/search?q=qqzzxxnothing', 'Results for “qqzzxxnothing”', '/search with no match');
    await audit.open('/no-such-page', MESSAGES.notFoundHeading);
  },

  async buyer(audit, page, world, width) {
    const { tiered, orders } = world;
    await page.goto('/');
    await audit.settled(page.getByTestId('featured-price'));
    await audit.check('/');
    await checkPhoneMenu(audit, page, width);
    await checkHeaderPanels(audit, page);
    await audit.open('/allproduct', 'All Product');
    await audit.open('/allproduct?view=table', 'All Product', '/allproduct table view');
    await audit.open('/categories', 'Select From Our categories');
    await audit.open(`/product/${tiered._id}`, tiered.name, '/product/{id}');
    await page.getByRole('button', { name: 'Buy Now' }).click();
    const checkout = page.getByRole('dialog', { name: 'Checkout' });
    await expect(checkout.getByTestId('checkout-ship-to')).toBeVisible();
    await audit.check('checkout dialog');
    await checkout.getByRole('spinbutton', { name: 'Quantity' }).fill('5');
    await checkNotice(audit, page, 'checkout with an error notice over it', MESSAGES.moqTitle, () =>
      checkout.getByRole('button', { name: 'Buy', exact: true }).click(),
    );
    await page.keyboard.press('Escape');

    await audit.open('/cart', 'Cart');
    await page.getByRole('button', { name: `Cancel order of ${tiered.name}` }).click();
    await expect(page.getByRole('dialog', { name: `Cancel order ${orders.placed.number}?` })).toBeVisible();
    await audit.check('cancel order dialog');
    await page.getByRole('button', { name: 'Keep order' }).click();

    await audit.open(`/orders/${orders.shipped._id}`, new RegExp(`Order ${orders.shipped.number}`), '/orders/{id} (shipped)');
    await audit.open('/search?q=kraft cartons', 'Results for “kraft cartons”');
    await audit.open('/business', 'Business profile');
    await audit.open('/addproduct', 'Add Product');
    await page.getByRole('button', { name: 'Add Product', exact: true }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await audit.check('/addproduct with field errors');
  },

  async seller(audit, page, world) {
    const { tiered, orders } = world;
    await audit.open('/myproduct', 'My Product');
    await page
      .getByRole('button', { name: /Delete/ })
      .first()
      .click();
    const confirm = page.getByRole('dialog');
    await expect(confirm.getByText(MESSAGES.deleteConfirm)).toBeVisible();
    await audit.check('delete confirm dialog');
    await checkNotice(audit, page, 'the not-deleted notice', MESSAGES.notDeleted, () => confirm.getByRole('button', { name: 'Cancel' }).click());

    await audit.open(`/upadateprocuct/${tiered._id}`, 'Update Product', '/upadateprocuct/{id}');
    await audit.open('/myproduct?q=e2e&stock=low', 'My Product', '/myproduct searched and filtered');
    await audit.open('/sales', 'Order desk');
    await page.getByRole('button', { name: `Accept order ${orders.placed.number}` }).click();
    await expect(page.getByRole('dialog', { name: `Accept order ${orders.placed.number}` })).toBeVisible();
    await audit.check('accept dialog');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: `Decline order ${orders.placed.number}` }).click();
    await expect(page.getByRole('dialog', { name: `Decline order ${orders.placed.number}` })).toBeVisible();
    await audit.check('decline dialog');
    await page.getByRole('button', { name: 'Back' }).click();
    await audit.open(`/orders/${orders.placed._id}`, new RegExp(`Order ${orders.placed.number}`), "/orders/{id} as the order's seller");
    await checkCatalogImport(audit, page);
    await audit.open('/dashboard', 'Dashboard');
    await page.getByRole('button', { name: 'Show as table' }).click();
    await audit.check('/dashboard with the chart as a table');
    await audit.open('/business', 'Business profile', '/business (pending review)');
    await checkHeaderPanels(audit, page);
  },

  async operator(audit, page, world, width) {
    await audit.open('/admin/verifications', 'Verification queue');
    await page.getByTestId('verification').first().getByRole('button', { name: 'Reject' }).click();
    await expect(page.getByLabel(/Reason/).first()).toBeVisible();
    await audit.check('reject form open');
    await audit.open('/admin/verifications?status=rejected', 'Verification queue', '/admin/verifications, the Rejected tab');
    await audit.open('/admin/verifications?status=verified', 'Verification queue', '/admin/verifications, the Verified tab');
    await audit.open('/admin/audit', 'Audit trail');

    // Not a verified business: the catalog's banner and the price nudges.
    await page.goto('/');
    await audit.settled(page.getByTestId('featured-price'));
    await audit.check('/ with the verification banner');
    await checkPhoneMenu(audit, page, width);
    await audit.open(`/product/${world.tiered._id}`, world.tiered.name, '/product/{id} with the nudge');
    await page.getByRole('button', { name: 'Buy Now' }).click();
    const checkout = page.getByRole('dialog', { name: 'Checkout' });
    await expect(checkout.getByLabel('Company')).toBeVisible();
    await checkout.getByRole('button', { name: 'Buy' }).click();
    await expect(checkout.locator('[aria-invalid="true"]').first()).toBeVisible();
    await audit.check('checkout with a new address, field errors');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('link', { name: 'Verification queue' })).toBeVisible();
    await audit.check('account menu open (operator)');
  },
};

/** The CSV import page empty, then its preview of a file with one new product and one bad row, and the apply confirm. */
async function checkCatalogImport(audit: Audit, page: Page): Promise<void> {
  await audit.open('/myproduct/import', 'Import products from CSV');
  const sku = `A11Y-${Date.now()}`;
  const csv = [
    'sku,name,category,brandname,price,minquantity,casepack,mainquantity,discount,tiers,description,image,image2,image3,content',
    `${sku},Kraft Tape A11y,Office Supplies & Stationery,TapeCo,4.50,10,1,200,0,,Brown kraft tape,/favicon.svg,,,`,
    `${sku}-BAD,Kraft Tape Broken,Office Supplies & Stationery,TapeCo,not a price,10,1,200,0,,,/favicon.svg,,,`,
  ].join('\r\n');
  await page.getByLabel('Choose a CSV file').setInputFiles({ name: 'catalog.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('import-job')).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('count-invalid')).toHaveText('1');
  await audit.check('/myproduct/import with a preview, one row in error');
  await page.getByRole('button', { name: 'Apply 1 change' }).click();
  await expect(page.getByRole('dialog', { name: 'Apply 1 change to your catalog?' })).toBeVisible();
  await audit.check('import apply confirm dialog');
  await page.keyboard.press('Escape');
}

const ROLES: Role[] = ['signed out', 'buyer', 'seller', 'operator'];

for (const width of [390, 1280]) {
  for (const role of ROLES) {
    test(`axe finds no violation: ${role} at ${width} px`, async ({ browser, world }) => {
      test.setTimeout(120_000);
      const options: BrowserContextOptions = { baseURL: world.baseURL, bypassCSP: true, viewport: { width, height: 844 } };
      const context = await browser.newContext(role === 'signed out' ? options : { ...options, storageState: world.states[role] });
      try {
        const page = await context.newPage();
        await page.clock.install();
        const audit = new Audit(page);
        await JOURNEYS[role](audit, page, world, width);
        expect(audit.found.length).toBeGreaterThan(3);
        expect(audit.failures, `${audit.found.length} page states checked`).toBe('');
      } finally {
        await context.close();
      }
    });
  }
}
