import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { APIRequestContext, Page } from '@playwright/test';
import { HOME_CATEGORY_CARDS } from '@bulkcart/contracts/categories';
import { LIMITS } from '@bulkcart/contracts/limits';
import type { Product } from '@bulkcart/contracts/product';
import { expect, test } from './support/fixtures.ts';
import { carousel, expectSlide } from './support/carousel.ts';
import { addProduct, featureOwnProducts } from './support/shop-api.ts';
import { shownUnitPrice } from './support/money.ts';

/** The home page (docs/product/screens.md, Home) at the desktop width; home.phone.spec.ts covers the phone. */

const HEADINGS = ['Our Product Categories', 'Frequently Asked Questions', 'Some Of Our Product', 'What Our Customers Say'];
const CARD_HEADLINE = 'Up to 50% Discount on Card Payment';
const SHOW_NOW_HEADLINE = 'Show now With Great Descount';

/** Opens the home page and hands back the featured products exactly as the page received them. */
async function openHome(page: Page): Promise<Product[]> {
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/topproduct');
  await page.goto('/');
  const response = await answer;
  expect(response.status()).toBe(200);
  return (await response.json()) as Product[];
}

function addTopRatedProduct(request: APIRequestContext, baseURL: string, discount: number): Promise<Product> {
  const tag = randomUUID().slice(0, 8);
  return addProduct(request, baseURL, {
    name: `Home Featured ${discount ? 'Sale' : 'Plain'} ${tag}`,
    image: '/images/products/gel-pens-12-pack.webp',
    brandname: `HomeBrand ${tag}`,
    description: 'Featured on the home page by its five-star rating.',
    price: 19,
    rating: 5,
    discount,
    mainquantity: 900,
    minquantity: 30,
  });
}

test('the home page shows its five sections with the spec headings, in order', async ({ page }) => {
  await openHome(page);
  await expect(page).toHaveTitle('wholesale-platform');
  await expect(carousel(page)).toBeVisible();
  await expect(
    page
      .getByRole('heading', { level: 2 })
      .filter({ hasText: /^(Our Product Categories|Frequently Asked Questions|Some Of Our Product|What Our Customers Say)$/ }),
  ).toHaveText(HEADINGS);
  // The banner comes first, before the first section heading.
  const bannerBox = await carousel(page).boundingBox();
  const firstHeading = await page.getByRole('heading', { name: 'Our Product Categories', exact: true }).boundingBox();
  expect(bannerBox!.y + bannerBox!.height).toBeLessThanOrEqual(firstHeading!.y);
});

test('the banner arrows loop through three slides: slide 1 is an image only, slides 2 and 3 carry the headlines', async ({ page }) => {
  await openHome(page);
  const banner = carousel(page);
  const next = banner.getByRole('button', { name: 'Next slide' });
  const previous = banner.getByRole('button', { name: 'Previous slide' });

  await expectSlide(page, 1);
  const first = banner.getByRole('group');
  await expect(first.getByRole('img')).toBeVisible();
  await expect(first.getByRole('heading')).toHaveCount(0);
  await expect(first.getByRole('link', { name: 'Shop now' })).toHaveCount(0);

  await next.click();
  await expectSlide(page, 2);
  await expect(banner.getByRole('heading', { name: CARD_HEADLINE, exact: true })).toBeInViewport();
  await expect(banner.getByRole('group').getByRole('link', { name: 'Shop now', exact: true })).toHaveAttribute('href', '/categories');

  await next.click();
  await expectSlide(page, 3);
  await expect(banner.getByRole('heading', { name: SHOW_NOW_HEADLINE, exact: true })).toBeInViewport();
  await expect(banner.getByRole('group').getByRole('link', { name: 'Shop now', exact: true })).toHaveAttribute('href', '/categories');

  await next.click();
  await expectSlide(page, 1);

  await previous.click();
  await expectSlide(page, 3);
  await previous.click();
  await expectSlide(page, 2);
});

test('the banner answers the arrow keys once focused', async ({ page }) => {
  await openHome(page);
  await carousel(page).focus();
  await page.keyboard.press('ArrowRight');
  await expectSlide(page, 2);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expectSlide(page, 3);
  await page.keyboard.press('ArrowRight');
  await expectSlide(page, 1);
});

test('the banner fills 80% of the viewport height on a large screen and loads only the first slide eagerly', async ({ page }) => {
  await openHome(page);
  const box = await carousel(page).boundingBox();
  expect(Math.round(box!.height)).toBe(Math.round(800 * 0.8));

  const images = carousel(page).locator('img');
  await expect(images).toHaveCount(3);
  await expect(images.nth(0)).toHaveAttribute('loading', 'eager');
  await expect(images.nth(0)).toHaveAttribute('fetchpriority', 'high');
  await expect(images.nth(1)).toHaveAttribute('loading', 'lazy');
  await expect(images.nth(2)).toHaveAttribute('loading', 'lazy');
  // Desktop widths get the wide picture; the first one has arrived and is the one on show.
  await expect.poll(() => images.nth(0).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1600);
});

test('every image on the home page reserves its space with width and height, and is served by the app', async ({ page }) => {
  await openHome(page);
  await expect(page.getByTestId('featured-card').first()).toBeVisible();
  const images = await page
    .locator('main img')
    .evaluateAll((imgs: HTMLImageElement[]) =>
      imgs.map((img) => ({ src: img.getAttribute('src') ?? '', width: img.getAttribute('width'), height: img.getAttribute('height') })),
    );
  expect(images.length).toBeGreaterThan(10);
  for (const image of images) {
    expect(image.width, image.src).toMatch(/^\d+$/);
    expect(image.height, image.src).toMatch(/^\d+$/);
    expect(image.src, 'no remote images').toMatch(/^\/(?!\/)/);
  }
  for (const src of ['/images/banner/banner-1-desktop.webp', '/images/banner/banner-1-mobile.webp', '/images/faq.webp']) {
    const response = await page.request.get(src);
    expect(response.status(), src).toBe(200);
    expect(response.headers()['content-type']).toBe('image/webp');
    expect((await response.body()).length, src).toBeLessThanOrEqual(40 * 1024);
  }
});

test("'Shop now' sends a signed-out visitor to sign in (Categories is for signed-in users)", async ({ page }) => {
  await openHome(page);
  await carousel(page).getByRole('button', { name: 'Next slide' }).click();
  await carousel(page).getByRole('group').getByRole('link', { name: 'Shop now' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
});

test("'Shop now' takes a signed-in buyer to the Categories page, from either headline slide", async ({ page, signedInUser: _user }) => {
  for (const clicks of [1, 2]) {
    await openHome(page);
    for (let i = 0; i < clicks; i++) await carousel(page).getByRole('button', { name: 'Next slide' }).click();
    await expectSlide(page, clicks === 1 ? 2 : 3);
    await carousel(page).getByRole('group').getByRole('link', { name: 'Shop now' }).click();
    await expect(page).toHaveURL(/\/categories$/);
    await expect(page).toHaveTitle('Categories');
    await expect(page.getByRole('heading', { level: 1, name: 'Select From Our categories' })).toBeVisible();
  }
});

test('the five category cards come in the spec order, four to a row, and fade in once scrolled into view', async ({ page }) => {
  await openHome(page);
  const cards = page.getByTestId('category-card');
  await expect(cards).toHaveCount(5);
  for (const [i, category] of HOME_CATEGORY_CARDS.entries()) {
    await expect(cards.nth(i).getByRole('heading', { level: 3 })).toHaveText(category);
    await expect(cards.nth(i).getByRole('link')).toHaveAttribute('href', `/Categories?category=${encodeURIComponent(category)}`);
  }

  // Below the 80vh banner the cards have not been seen yet, so they wait, transparent and lowered.
  await expect(cards.first()).toHaveCSS('opacity', '0');
  await page.getByRole('heading', { name: 'Our Product Categories', exact: true }).scrollIntoViewIfNeeded();
  await cards.first().scrollIntoViewIfNeeded();
  for (let i = 0; i < 4; i++) await expect(cards.nth(i)).toHaveCSS('opacity', '1');
  await expect(cards.first()).toHaveCSS('transform', 'none');

  // Once shown they stay shown, even after scrolling away and back.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => window.scrollY === 0);
  await expect(cards.first()).toHaveCSS('opacity', '1');

  const boxes = await Promise.all([0, 1, 2, 3, 4].map((i) => cards.nth(i).boundingBox()));
  const tops = boxes.map((b) => Math.round(b!.y));
  expect(new Set(tops.slice(0, 4)).size, 'the first four cards share a row').toBe(1);
  expect(tops[4]).toBeGreaterThan(tops[0]!);
});

test('a signed-out click on a category card records the category, then sign-in is asked for', async ({ page }) => {
  await openHome(page);
  await page.getByTestId('category-card').filter({ hasText: 'Office Supplies & Stationery' }).getByRole('link').click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => sessionStorage.getItem('bulkcart.selectedCategory'))).toBe('Office Supplies & Stationery');
});

test('a category card opens the Categories page on its category for a signed-in buyer', async ({ page, signedInUser: _user }) => {
  for (const category of ['Health & Beauty', 'Electronics & Gadgets'] as const) {
    await openHome(page);
    await page.getByTestId('category-card').filter({ hasText: category }).getByRole('link').click();
    await expect(page).toHaveURL(`/Categories?category=${encodeURIComponent(category)}`);
    await expect(page.getByRole('heading', { level: 1, name: category, exact: true })).toBeVisible();
    await expect(page.getByLabel('Category', { exact: true })).toHaveValue(category);
    expect(await page.evaluate(() => sessionStorage.getItem('bulkcart.selectedCategory'))).toBe(category);
    // Every product listed belongs to it.
    const labels = page.getByTestId('product-category');
    await expect(labels.first()).toBeVisible();
    for (const text of await labels.allTextContents()) expect(text).toBe(category);
  }
});

test('the FAQ shows an illustration and four answers from the product rules; the first starts open and each toggles on its own', async ({ page }) => {
  await openHome(page);
  const faq = page.getByRole('region', { name: 'Frequently Asked Questions' });
  await expect(faq.getByRole('img')).toHaveAttribute('alt', /.+/);
  const items = faq.getByTestId('faq-item');
  await expect(items).toHaveCount(4);

  const answers = [
    /business license or reseller permit is required to buy at wholesale prices/,
    /minimum order quantity \(MOQ\)\. It varies by product and is listed on each product page/,
    /Volume-based bulk discounts are applied automatically at checkout, or are available on request for large orders/,
    /typically processed within 2–3 business days\. Shipping time depends on your location and the shipping method you choose/,
  ];
  await expect(items.nth(0)).toHaveAttribute('open', '');
  for (const i of [1, 2, 3]) await expect(items.nth(i)).not.toHaveAttribute('open');
  await expect(items.nth(0).getByText(answers[0]!)).toBeVisible();
  await expect(items.nth(1).getByText(answers[1]!)).toBeHidden();

  // Opening the second leaves the first open: they are independent.
  await items.nth(1).locator('summary').click();
  await expect(items.nth(1)).toHaveAttribute('open', '');
  await expect(items.nth(1).getByText(answers[1]!)).toBeVisible();
  await expect(items.nth(0)).toHaveAttribute('open', '');

  await items.nth(0).locator('summary').click();
  await expect(items.nth(0)).not.toHaveAttribute('open');
  await expect(items.nth(0).getByText(answers[0]!)).toBeHidden();
  await expect(items.nth(1)).toHaveAttribute('open', '');

  for (const i of [2, 3]) {
    await items.nth(i).locator('summary').click();
    await expect(items.nth(i).getByText(answers[i]!)).toBeVisible();
    await items.nth(i).locator('summary').click();
    await expect(items.nth(i)).not.toHaveAttribute('open');
  }
});

test('the featured products need no sign-in and each card shows what the product screens list', async ({ page }) => {
  const direct = await page.request.get('/api/topproduct');
  expect(direct.status()).toBe(200);
  expect(((await direct.json()) as Product[]).length).toBeLessThanOrEqual(LIMITS.featuredCount);

  const products = await openHome(page);
  expect(products.length).toBeGreaterThan(0);
  const cards = page.getByTestId('featured-card');
  await expect(cards).toHaveCount(products.length);

  for (const product of products) {
    const card = page.getByRole('article', { name: product.name, exact: true });
    await expect(card.getByRole('img', { name: product.name })).toHaveAttribute('src', product.image);
    await expect(card.getByRole('heading', { level: 3 })).toHaveText(product.name);
    await expect(card.getByTestId('featured-category')).toHaveText(product.category.toUpperCase());
    await expect(card.getByText(`By: ${product.brandname}`, { exact: true })).toBeVisible();
    await expect(card.getByTestId('featured-price').getByTestId('unit-price')).toHaveText(shownUnitPrice(product));
    await expect(card.getByRole('link', { name: 'View Details' })).toHaveAttribute('href', `/product/${product._id}`);
    await expect(card.getByRole('button', { name: 'Buy Now' })).toBeEnabled();
    if (product.discount > 0) await expect(card.getByTestId('discount-badge')).toHaveText(`-${product.discount}%`);
    else await expect(card.getByTestId('discount-badge')).toHaveCount(0);
  }
});

test('the discount badge shows on a discounted featured product and never on one without a discount', async ({ page, baseURL, signedInUser: _user }) => {
  const onSale = await addTopRatedProduct(page.request, baseURL!, 30);
  const plain = await addTopRatedProduct(page.request, baseURL!, 0);
  const products = await openHome(page);
  // Newest first among five-star products, so both are featured.
  expect(products.map((p) => p._id)).toEqual(expect.arrayContaining([onSale._id, plain._id]));

  const saleCard = page.getByRole('article', { name: onSale.name, exact: true });
  const plainCard = page.getByRole('article', { name: plain.name, exact: true });
  await expect(saleCard.getByTestId('discount-badge')).toHaveText('-30%');
  await expect(saleCard.getByText('-30%', { exact: true })).toBeVisible();
  await expect(plainCard.getByTestId('featured-price')).toHaveText('$19.00');
  await expect(plainCard.getByTestId('discount-badge')).toHaveCount(0);
  await expect(plainCard.getByText(/^-\d+%$/)).toHaveCount(0);
});

test("a featured card's 'View Details' opens its product, scrolled to the top", async ({ page, signedInUser: _user }) => {
  const [product] = await openHome(page);
  const card = page.getByRole('article', { name: product!.name, exact: true });
  await card.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await card.getByRole('link', { name: 'View Details' }).click();
  await expect(page).toHaveURL(`/product/${product!._id}`);
  await expect(page.getByRole('heading', { name: product!.name }).first()).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test("a featured card's buy button opens the checkout dialog for a signed-in buyer", async ({ page, signedInUser: user }) => {
  const [product] = await openHome(page);
  const card = page.getByRole('article', { name: product!.name, exact: true });
  await card.getByRole('button', { name: 'Buy Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Checkout' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(user.email)).toBeVisible();
  await expect(dialog.getByRole('spinbutton', { name: 'Quantity' })).toHaveValue(String(product!.minquantity));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a signed-out buyer pressing a featured buy button is asked to sign in', async ({ page }) => {
  const [product] = await openHome(page);
  await page.getByRole('article', { name: product!.name, exact: true }).getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a failed featured load leaves the grid empty, logs the error and keeps the rest of the page', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') logged.push(message.text());
  });
  // A dropped connection, not a fake answer: nothing of the server's behaviour is imitated.
  await page.route('**/api/topproduct', (route) => route.abort('connectionreset'));
  await page.goto('/');

  await expect.poll(() => logged.some((text) => text.includes('Could not load the featured products')), { timeout: 20_000 }).toBe(true);
  const grid = page.getByTestId('featured-grid');
  await expect(grid.locator('li')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Some Of Our Product', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What Our Customers Say', exact: true })).toBeVisible();
  await expect(page.getByTestId('category-card')).toHaveCount(5);
  await expect(carousel(page)).toBeVisible();
});

test('the testimonials show three customers, each with a role, a comment and 4 or 5 stars', async ({ page }) => {
  await openHome(page);
  const section = page.getByRole('region', { name: 'What Our Customers Say' });
  const entries = section.getByTestId('testimonial');
  await expect(entries).toHaveCount(3);
  const names = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const entry = entries.nth(i);
    await expect(entry.locator('blockquote')).toHaveText(/\w{3,}.*\w{3,}/);
    const stars = entry.getByRole('img', { name: /^Rated [45] out of 5 stars$/ });
    await expect(stars).toBeVisible();
    await expect(stars).toHaveText(/^★{5}$/);
    await expect(entry.getByTestId('testimonial-role')).toHaveText(/\w{3,}/);
    const name = await entry.getByTestId('testimonial-name').textContent();
    expect(name).toMatch(/^\w+ \w+$/);
    names.add(name!);
  }
  expect(names.size).toBe(3);
});

test('a featured picture that fails to load shows a plain panel, not a broken-image icon', async ({ page, baseURL, signedInUser }) => {
  const product = await addProduct(page.request, baseURL!, { image: `/images/products/review-missing-${randomUUID().slice(0, 8)}.webp`, discount: 0 });
  await featureOwnProducts(page, signedInUser);
  await page.goto('/');
  const card = page.getByRole('article', { name: product.name, exact: true });
  const image = card.getByRole('img', { name: product.name });
  await card.scrollIntoViewIfNeeded();
  await expect(card).toHaveCSS('opacity', '1');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 0)).toBe(true);

  // Every pixel of the picture's box (inside the card's rounded corners) is the panel's colour: no
  // icon, no alt text drawn over it.
  const box = (await image.boundingBox())!;
  const shot = await page.screenshot({ clip: { x: box.x + 12, y: box.y + 12, width: box.width - 24, height: box.height - 24 } });
  const { channels } = await sharp(shot).removeAlpha().stats();
  for (const channel of channels) expect(channel.max - channel.min, `pixel spread ${channels.map((c) => `${c.min}-${c.max}`)}`).toBeLessThanOrEqual(3);
  await page.screenshot({ path: test.info().outputPath('featured-broken-image.png') });
});
