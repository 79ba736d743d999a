import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { Product } from '@bulkcart/contracts/product';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { LIMITS } from '@bulkcart/contracts/limits';
import { CATEGORIES } from '@bulkcart/contracts/categories';
import { expect, newUser, signUpViaApi, test } from './support/fixtures.ts';
import { expectNotice, expectNoticeFrom } from './support/notices.ts';
import { addProduct } from './support/shop-api.ts';
import { money, shownUnitPrice } from './support/money.ts';

interface NewProduct {
  name: string;
  image: string;
  image2?: string;
  image3?: string;
  brandname: string;
  category: string;
  description: string;
  Content: string;
  price: number;
  rating: number;
  mainquantity: number;
  minquantity: number;
  discount?: number;
}

function sampleProduct(overrides: Partial<NewProduct> = {}): NewProduct {
  const tag = randomUUID().slice(0, 8);
  return {
    name: `E2E Pallet Jack ${tag}`,
    image: '/favicon.svg',
    brandname: `Brand ${tag}`,
    category: 'Industrial Machinery & Tools',
    description: `Heavy duty pallet jack ${tag} for warehouses.`,
    Content: `Capacity 2500 kg. Ships flat-packed. Ref ${tag}.`,
    price: 37,
    rating: 4,
    mainquantity: 900,
    minquantity: 150,
    ...overrides,
  };
}

/** Records the text of every notice the page shows, so a test can check none came twice or unasked. */
async function recordNotices(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __notices: seen });
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) {
          if (!(node instanceof Element)) continue;
          const found = node.matches('[popover] p') ? [node] : Array.from(node.querySelectorAll('[popover] p'));
          for (const p of found) seen.push(p.textContent ?? '');
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { __notices: string[] }).__notices);
}

function productCard(page: Page, name: string): Locator {
  return page.getByRole('article', { name, exact: true });
}

test('a seller adds a product through the form, sees field errors first, then finds it in My Product', async ({ page, signedInUser: _seller }) => {
  const product = sampleProduct({ category: 'Office Supplies & Stationery', discount: 15 });
  await page.goto('/addproduct');
  await expect(page).toHaveTitle('wholesale-platform-Add Product');

  // The shared contract schema runs in the browser: required fields are named next to their inputs.
  await page.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Image is required')).toBeVisible();
  await expect(page.getByText('Choose one of the six categories')).toBeVisible();
  await expect(page.getByLabel('Product name')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Product name').fill(product.name);
  await page.getByLabel('Brand name').fill(product.brandname);
  await page.getByLabel('Category', { exact: true }).selectOption(product.category);
  await page.getByLabel('Price ($ per unit)').fill(String(product.price));
  await page.getByLabel('Main quantity (in stock)').fill(String(product.mainquantity));
  await page.getByLabel('Min buy quantity').fill(String(product.minquantity));
  await page.getByLabel('Rating (1 to 5)').fill('9');
  await page.getByLabel('Discount (%)').fill(String(product.discount));
  await page.getByLabel('Image URL', { exact: true }).fill('javascript:alert(1)');
  await page.getByLabel('Short description').fill(product.description);
  await page.getByLabel('Product Content').fill(product.Content);
  await page.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByText('Rating must be at most 5')).toBeVisible();
  await expect(page.getByText('Image must be an https URL or a path on this site (starting with /)')).toBeVisible();

  await page.getByLabel('Rating (1 to 5)').fill(String(product.rating));
  await page.getByLabel('Image URL', { exact: true }).fill(product.image);
  await page.getByRole('button', { name: 'Add Product' }).click();
  await expectNotice(page, MESSAGES.productAdded);
  await expect(page.getByText(MESSAGES.productAdded)).toBeHidden();
  // The form starts over for the next product.
  await expect(page.getByLabel('Product name')).toHaveValue('');
  await expect(page.getByLabel('Price ($ per unit)')).toHaveValue('');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Product' }).click();
  await expect(page).toHaveURL(/\/myproduct$/);
  await expect(page).toHaveTitle('My Product');
  const card = productCard(page, product.name);
  await expect(card.getByRole('heading', { name: product.name })).toBeVisible();
  await expect(card.getByText(product.category, { exact: true })).toBeVisible();
  await expect(card.getByText(`By: ${product.brandname}`)).toBeVisible();
  await expect(card.getByText(`Min Buy Qty: ${product.minquantity}`)).toBeVisible();
  await expect(card.getByText(product.description)).toBeVisible();
  await expect(card.getByTestId('unit-price')).toHaveText(shownUnitPrice({ price: product.price, discount: product.discount ?? 0 }));
  // A discount shows the list price struck through beside the price paid.
  await expect(card.getByTestId('list-price')).toHaveText(`List price ${money(product.price)}`);
  await expect(card.getByText('4.00', { exact: true })).toBeVisible();
  await expect(card.getByText('-15%')).toBeVisible();
  await expect(card.getByRole('img', { name: product.name })).toBeVisible();
  await expect(card.getByRole('link', { name: /Update/ })).toBeVisible();
  await expect(card.getByRole('button', { name: /Delete/ })).toBeVisible();
});

test('All Product shows your products with Update in both views, and the available toggle keeps only MOQ above 100', async ({ page, baseURL }) => {
  const seller = newUser('seller');
  await signUpViaApi(page.request, baseURL!, seller);
  const bulk = await addProduct(page.request, baseURL!, sampleProduct({ minquantity: 150 }));
  const small = await addProduct(page.request, baseURL!, sampleProduct({ minquantity: 10 }));

  await page.goto('/allproduct');
  await expect(page).toHaveTitle('All Product');
  await expect(page.getByRole('heading', { name: 'All Product' })).toBeVisible();
  const bulkCard = productCard(page, bulk.name);
  await expect(bulkCard.getByRole('link', { name: /Update/ })).toHaveAttribute('href', `/upadateprocuct/${bulk._id}`);
  await expect(productCard(page, small.name)).toBeVisible();

  await page.getByLabel('View', { exact: true }).selectOption({ label: 'Table View' });
  await expect(page).toHaveURL(/view=table/);
  const table = page.getByRole('table');
  for (const header of ['Image', 'Name', 'Description', 'Brand', 'Category', 'Price', 'Action']) {
    await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }
  const row = table.getByRole('row').filter({ hasText: bulk.name });
  await expect(row.getByRole('img', { name: bulk.name })).toBeVisible();
  await expect(row.getByText(bulk.description!)).toBeVisible();
  await expect(row.getByText(bulk.brandname, { exact: true })).toBeVisible();
  await expect(row.getByText(bulk.category, { exact: true })).toBeVisible();
  await expect(row.getByTestId('unit-price')).toHaveText(shownUnitPrice(bulk));
  await expect(row.getByRole('link', { name: /Update/ })).toHaveAttribute('href', `/upadateprocuct/${bulk._id}`);

  await page.getByRole('button', { name: 'Show Available Products' }).click();
  await expect(page).toHaveURL(/available=true/);
  await expect(page).toHaveURL(/view=table/);
  await expect(table.getByRole('row').filter({ hasText: bulk.name })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: small.name })).toHaveCount(0);

  // Both choices survive a reload, because they live in the URL.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Show Available Products' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('View', { exact: true })).toHaveValue('table');
  await page.getByLabel('View', { exact: true }).selectOption({ label: 'Card View' });
  await expect(productCard(page, bulk.name)).toBeVisible();
  await expect(productCard(page, small.name)).toHaveCount(0);

  await page.getByRole('button', { name: 'Show All Products' }).click();
  await expect(page).not.toHaveURL(/available=/);
  await expect(productCard(page, small.name)).toBeVisible();
});

test('long lists load the next page by "Load more" or by scrolling, never showing a product twice', async ({ page, signedInUser: _user }) => {
  // The demo catalog alone holds more than one page.
  const listRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/allproduct') listRequests.push(request.url());
  });
  await page.goto('/allproduct');
  const cards = page.getByTestId('product-card');
  await expect(cards).toHaveCount(LIMITS.firstPage);
  // The frame starts the first request before the page's code arrives; the page takes that answer.
  expect(listRequests).toHaveLength(1);
  // Only the first screen's photos (the widest layout's first row) skip lazy loading; the first goes
  // first. A card whose photo failed shows a placeholder instead, so it is read card by card.
  const photos = await cards.evaluateAll((articles) =>
    articles.map((article, index) => {
      const img = article.querySelector('img');
      return img ? { index, loading: img.getAttribute('loading'), priority: img.getAttribute('fetchpriority') } : null;
    }),
  );
  const shown = photos.filter((photo) => photo !== null);
  expect(shown.length).toBeGreaterThan(4);
  for (const photo of shown) {
    expect(photo.loading, `card ${photo.index}`).toBe(photo.index < 4 ? 'eager' : 'lazy');
    expect(photo.priority, `card ${photo.index}`).toBe(photo.index === 0 ? 'high' : 'auto');
  }
  // A plain click, without scrolling the button into view (that would load the page by itself).
  await page.getByRole('button', { name: 'Load more' }).dispatchEvent('click');
  await expect.poll(() => cards.count()).toBeGreaterThan(LIMITS.firstPage);
  const links = await cards.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(new Set(links).size).toBe(links.length);

  await page.goto('/categories');
  await expect(cards).toHaveCount(LIMITS.firstPage);
  await page.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
  await expect.poll(() => cards.count()).toBeGreaterThan(LIMITS.firstPage);
  const details = await cards.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(new Set(details).size).toBe(details.length);
});

test('Categories opens on All, filters by the chosen category and keeps it in the URL', async ({ page, baseURL }) => {
  await signUpViaApi(page.request, baseURL!, newUser('seller'));
  const product = await addProduct(page.request, baseURL!, sampleProduct({ category: 'Health & Beauty' }));

  await page.goto('/categories');
  await expect(page).toHaveTitle('Categories');
  await expect(page.getByRole('heading', { name: 'Select From Our categories' })).toBeVisible();
  await expect(page.getByText('Now showing all Product')).toBeVisible();
  await expect(page.getByLabel('Category', { exact: true })).toHaveValue('All');
  const options = await page.getByLabel('Category', { exact: true }).locator('option').allTextContents();
  // The six categories in the order docs/product/rules.md gives them, after All.
  expect(options).toEqual(['All', ...CATEGORIES]);

  await page.getByLabel('Category', { exact: true }).selectOption('Health & Beauty');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Health & Beauty');
  await expect(page.getByText('Now showing all Product')).toHaveCount(0);
  await expect(page).toHaveURL(/category=Health\+%26\+Beauty|category=Health%20%26%20Beauty/);
  const cards = page.getByTestId('product-card');
  await expect(productCard(page, product.name)).toBeVisible();
  // Every card shown belongs to the chosen category.
  const categories = await cards.getByTestId('product-category').allTextContents();
  expect(new Set(categories)).toEqual(new Set(['Health & Beauty']));

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Health & Beauty');
  await productCard(page, product.name)
    .getByRole('link', { name: /Details/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/product/${product._id}$`));
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();

  await page.goto('/Categories?category=Industrial%20Machinery%20%26%20Tools');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Industrial Machinery & Tools');
  await expect(productCard(page, product.name)).toHaveCount(0);
  await page.getByLabel('Category', { exact: true }).selectOption('All');
  await expect(page.getByRole('heading', { name: 'Select From Our categories' })).toBeVisible();
  await expect(productCard(page, product.name)).toBeVisible();
});

test('the product page shows every field, swaps thumbnails and starts the quantity at the MOQ', async ({ page, baseURL }) => {
  await signUpViaApi(page.request, baseURL!, newUser('seller'));
  const product = await addProduct(
    page.request,
    baseURL!,
    sampleProduct({ image2: '/images/default-avatar.svg', image3: '/favicon.svg?third', minquantity: 120, mainquantity: 4000, price: 12, rating: 5 }),
  );
  // A buyer looks at it: its own seller is offered no Buy Now.
  await page.context().clearCookies();
  await signUpViaApi(page.request, baseURL!, newUser('buyer'));

  await page.goto(`/product/${product._id}`);
  await expect(page).toHaveTitle('wholesale-platform-Details');
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await expect(page.getByText('(120 reviews)')).toBeVisible();
  await expect(page.getByLabel('Rated 5.00 out of 5')).toBeVisible();
  await expect(page.getByTestId('product-price').getByTestId('unit-price')).toHaveText(shownUnitPrice(product));
  await expect(page.getByText(product.description!)).toBeVisible();
  const facts = page.locator('dl');
  await expect(facts).toContainText(`Category${product.category}`);
  await expect(facts).toContainText(`Brand${product.brandname}`);
  await expect(facts).toContainText('Main quantity4000');
  await expect(facts).toContainText('Min buy quantity120');
  const quantity = page.getByLabel('Quantity', { exact: true });
  await expect(quantity).toHaveValue('120');
  await expect(quantity).toHaveAttribute('min', '120');
  // The chosen quantity is where the checkout dialog starts.
  await quantity.fill('135');
  await page.getByRole('button', { name: 'Buy Now' }).click();
  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout.getByLabel('Quantity', { exact: true })).toHaveValue('135');
  await checkout.getByRole('button', { name: 'Close' }).click();
  await expect(checkout).toBeHidden();
  await expect(page.getByRole('heading', { name: 'More Information' })).toBeVisible();
  await expect(page.getByText(product.Content!)).toBeVisible();

  const main = page.getByRole('img', { name: product.name });
  await expect(main).toHaveAttribute('src', product.image);
  // The main photo is the page's largest paint: asked for ahead of the rest; the thumbnails load lazily.
  await expect(main).toHaveAttribute('fetchpriority', 'high');
  await expect(page.getByRole('button', { name: 'Show image 2 of 3' }).locator('img')).toHaveAttribute('loading', 'lazy');
  await page.getByRole('button', { name: 'Show image 2 of 3' }).click();
  await expect(main).toHaveAttribute('src', product.image2!);
  await expect(page.getByRole('button', { name: 'Show image 2 of 3' })).toHaveAttribute('aria-pressed', 'true');
});

test('an unknown product id says so instead of spinning', async ({ page, signedInUser: _user }) => {
  await page.goto(`/product/${randomUUID()}`);
  await expect(page.getByText('This product does not exist or has been removed.')).toBeVisible();
  await page.goto(`/upadateprocuct/${randomUUID()}`);
  await expect(page.getByText('This product does not exist or has been removed.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update Product' })).toHaveCount(0);
});

test('a seller updates a product from My Product with the form prefilled', async ({ page, baseURL }) => {
  await signUpViaApi(page.request, baseURL!, newUser('seller'));
  const product = await addProduct(page.request, baseURL!, sampleProduct());

  await page.goto('/myproduct');
  await productCard(page, product.name)
    .getByRole('link', { name: /Update/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/upadateprocuct/${product._id}$`));
  await expect(page).toHaveTitle('wholesale-platform-Update Product');
  await expect(page.getByLabel('Product name')).toHaveValue(product.name);
  await expect(page.getByLabel('Category', { exact: true })).toHaveValue(product.category);
  await expect(page.getByLabel('Min buy quantity')).toHaveValue(String(product.minquantity));
  await expect(page.getByLabel('Product Content')).toHaveValue(product.Content!);

  // On update the description is required (docs/product/rules.md).
  await page.getByLabel('Short description').fill('');
  await page.getByRole('button', { name: 'Update Product' }).click();
  await expect(page.getByText('Description is required')).toBeVisible();

  const renamed = `${product.name} v2`;
  await page.getByLabel('Short description').fill('Now with quick-lift pump.');
  await page.getByLabel('Product name').fill(renamed);
  await page.getByLabel('Price ($ per unit)').fill('41');
  await page.getByRole('button', { name: 'Update Product' }).click();
  await expectNotice(page, MESSAGES.productUpdated);
  await expect(page.getByLabel('Product name')).toHaveValue(renamed);

  await page.goto(`/product/${product._id}`);
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expect(page.getByTestId('product-price').getByTestId('unit-price')).toHaveText(shownUnitPrice({ price: 41, discount: product.discount }));
  await expect(page.getByText('Now with quick-lift pump.')).toBeVisible();
});

test('when the session has ended, update and add show the failure notices and keep what was typed', async ({ page, baseURL }) => {
  await signUpViaApi(page.request, baseURL!, newUser('seller'));
  const product = await addProduct(page.request, baseURL!, sampleProduct());
  // The navbar's cart count and bell read once they have loaded: after those reads, so that this test
  // is about the form's own write meeting the ended session, not about which read comes first.
  const navbarReads = Promise.all(
    ['/api/cart', '/api/notifications/unread-count'].map((path) => page.waitForResponse((r) => new URL(r.url()).pathname === path)),
  );
  await page.goto(`/upadateprocuct/${product._id}`);
  await expect(page.getByLabel('Product name')).toHaveValue(product.name);
  await navbarReads;

  // Signed out elsewhere (or the session expired) while the form was open.
  await page.context().clearCookies();
  await page.getByLabel('Product name').fill('Edited while signed out');
  await page.getByRole('button', { name: 'Update Product' }).click();
  await expectNotice(page, MESSAGES.somethingWentWrong);
  await expect(page.getByLabel('Product name')).toHaveValue('Edited while signed out');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Add Product' }).click();
  const draft = sampleProduct();
  await page.getByLabel('Product name').fill(draft.name);
  await page.getByLabel('Brand name').fill(draft.brandname);
  await page.getByLabel('Category', { exact: true }).selectOption(draft.category);
  await page.getByLabel('Main quantity (in stock)').fill('10');
  await page.getByLabel('Min buy quantity').fill('2');
  await page.getByLabel('Image URL', { exact: true }).fill(draft.image);
  await page.getByRole('button', { name: 'Add Product' }).click();
  await expectNotice(page, MESSAGES.addProductFailed);
  await expect(page.getByLabel('Product name')).toHaveValue(draft.name);
  expect((await page.request.get(`/api/product/${product._id}`)).status()).toBe(200);
  const unchanged = (await (await page.request.get(`/api/product/${product._id}`)).json()) as Product;
  expect(unchanged.name).toBe(product.name);
});

test('deleting asks first: Cancel keeps the product, Delete removes it after the server confirmed', async ({ page, baseURL }) => {
  await signUpViaApi(page.request, baseURL!, newUser('seller'));
  const product = await addProduct(page.request, baseURL!, sampleProduct());

  const notices = await recordNotices(page);
  await page.goto('/myproduct');
  const card = productCard(page, product.name);
  await card.getByRole('button', { name: /Delete/ }).click();
  const dialog = page.getByRole('dialog', { name: MESSAGES.deleteConfirm });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: MESSAGES.deleteConfirm })).toBeVisible();
  await expectNoticeFrom(page, MESSAGES.notDeleted, () => dialog.getByRole('button', { name: 'Cancel' }).click());
  await expect(dialog).toBeHidden();
  await expect(card).toBeVisible();
  expect((await page.request.get(`/api/product/${product._id}`)).status()).toBe(200);

  await card.getByRole('button', { name: /Delete/ }).click();
  await expectNoticeFrom(page, MESSAGES.deleted, () => dialog.getByRole('button', { name: 'Delete', exact: true }).click());
  await expect(card).toHaveCount(0);
  expect((await page.request.get(`/api/product/${product._id}`)).status()).toBe(404);

  // That was the seller's only product.
  await expect(page.getByText(MESSAGES.noProductFound)).toBeVisible();
  await page.getByRole('link', { name: 'Add products' }).click();
  await expect(page).toHaveURL(/\/addproduct$/);
  // One notice per answer: closing the dialog after Delete is not a second, cancelling answer.
  expect(await notices()).toEqual([MESSAGES.notDeleted, MESSAGES.deleted]);
});

test('another user sees View Details instead of Update, cannot open the form, and gets 403 from the API', async ({ page, browser, baseURL }) => {
  await signUpViaApi(page.request, baseURL!, newUser('seller'));
  const product = await addProduct(page.request, baseURL!, sampleProduct());

  const buyerContext = await browser.newContext({ baseURL });
  try {
    const buyerPage = await buyerContext.newPage();
    await signUpViaApi(buyerPage.request, baseURL!, newUser('buyer'));

    await buyerPage.goto('/allproduct');
    const card = productCard(buyerPage, product.name);
    await expect(card.getByRole('link', { name: /View Details/ })).toHaveAttribute('href', `/product/${product._id}`);
    await expect(card.getByRole('link', { name: /Update/ })).toHaveCount(0);
    await buyerPage.getByLabel('View', { exact: true }).selectOption({ label: 'Table View' });
    const row = buyerPage.getByRole('row').filter({ hasText: product.name });
    await expect(row.getByRole('link', { name: /View Details/ })).toBeVisible();
    await expect(row.getByRole('link', { name: /Update/ })).toHaveCount(0);

    await buyerPage.goto(`/upadateprocuct/${product._id}`);
    await expect(buyerPage.getByText('was listed by another seller. Only the seller who listed a product can update it.')).toBeVisible();
    await expect(buyerPage.getByRole('button', { name: 'Update Product' })).toHaveCount(0);

    const { _id: _ignored, useremail: _owner, updatedby: _by, createdAt: _at, ...fields } = product;
    const response = await buyerPage.request.put(`/api/updateproduct/${product._id}`, {
      data: { ...fields, name: 'Taken over' },
      headers: { origin: baseURL! },
    });
    expect(response.status()).toBe(403);
    const after = (await (await buyerPage.request.get(`/api/product/${product._id}`)).json()) as Product;
    expect(after.name).toBe(product.name);
  } finally {
    await buyerContext.close();
  }
});
