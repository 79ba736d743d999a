import { devices, type Page } from '@playwright/test';
import { HOME_CATEGORY_CARDS } from '@bulkcart/contracts/categories';
import { expect, test } from './support/fixtures.ts';
import { carousel, expectSlide } from './support/carousel.ts';

/**
 * The home page on a phone. The 'phone' project runs this file at Pixel 7 size with touch; the file
 * asks for the same device itself, so it tests a phone whichever project picks it up.
 */
const { defaultBrowserType: _browser, ...pixel7 } = devices['Pixel 7'];
test.use(pixel7);

/**
 * A finger sliding sideways across the banner, sent as real touch input through the DevTools
 * protocol; the page sees the pointer events a phone produces.
 */
async function swipe(page: Page, direction: 'left' | 'right'): Promise<void> {
  const box = (await carousel(page).boundingBox())!;
  const y = box.y + box.height * 0.75;
  const from = direction === 'left' ? box.x + box.width * 0.8 : box.x + box.width * 0.2;
  const to = direction === 'left' ? box.x + box.width * 0.2 : box.x + box.width * 0.8;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
  for (let i = 1; i <= 6; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from + ((to - from) * i) / 6, y }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

async function openHome(page: Page): Promise<void> {
  await page.goto('/');
  await expect(carousel(page)).toBeVisible();
}

test('swiping the banner moves between slides and loops both ways', async ({ page }) => {
  await openHome(page);
  await expectSlide(page, 1);
  await swipe(page, 'left');
  await expectSlide(page, 2);
  await expect(carousel(page).getByRole('heading', { name: 'Up to 50% Discount on Card Payment', exact: true })).toBeInViewport();
  await swipe(page, 'left');
  await expectSlide(page, 3);
  await expect(carousel(page).getByRole('heading', { name: 'Show now With Great Descount', exact: true })).toBeInViewport();
  await swipe(page, 'left');
  await expectSlide(page, 1);
  await swipe(page, 'right');
  await expectSlide(page, 3);
  await swipe(page, 'right');
  await expectSlide(page, 2);
});

test('the banner arrows loop on a phone too, and the banner keeps a 4:3 shape instead of 80% of the screen', async ({ page }) => {
  await openHome(page);
  const next = carousel(page).getByRole('button', { name: 'Next slide' });
  for (const n of [2, 3, 1] as const) {
    await next.tap();
    await expectSlide(page, n);
  }
  await carousel(page).getByRole('button', { name: 'Previous slide' }).tap();
  await expectSlide(page, 3);

  const box = (await carousel(page).boundingBox())!;
  expect(Math.round((box.width * 3) / 4)).toBe(Math.round(box.height));
  // Phones get the small picture.
  const first = carousel(page).locator('img').first();
  await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800);
});

test("tapping 'Shop now' takes a signed-in buyer to the Categories page", async ({ page, signedInUser: _user }) => {
  await openHome(page);
  await swipe(page, 'left');
  await expectSlide(page, 2);
  await carousel(page).getByRole('group').getByRole('link', { name: 'Shop now', exact: true }).tap();
  await expect(page).toHaveURL(/\/categories$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Select From Our categories' })).toBeVisible();
});

test('the category cards and featured products stack in one column, and a card opens its category', async ({ page, signedInUser: _user }) => {
  await openHome(page);
  const cards = page.getByTestId('category-card');
  await expect(cards).toHaveCount(5);
  const lefts = await Promise.all(HOME_CATEGORY_CARDS.map((_, i) => cards.nth(i).boundingBox()));
  expect(new Set(lefts.map((b) => Math.round(b!.x))).size).toBe(1);
  expect(lefts.every((b, i) => i === 0 || b!.y > lefts[i - 1]!.y)).toBe(true);

  const featured = page.getByTestId('featured-card');
  await expect(featured.first()).toBeVisible();
  const featuredBoxes = await Promise.all([0, 1, 2].map((i) => featured.nth(i).boundingBox()));
  expect(new Set(featuredBoxes.map((b) => Math.round(b!.x))).size).toBe(1);

  // Nothing pushes the page sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  const card = cards.filter({ hasText: 'Fashion & Apparel' });
  await card.scrollIntoViewIfNeeded();
  await expect(card).toHaveCSS('opacity', '1');
  await card.getByRole('link').tap();
  await expect(page).toHaveURL(`/Categories?category=${encodeURIComponent('Fashion & Apparel')}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Fashion & Apparel', exact: true })).toBeVisible();
});

test('FAQ answers open and close with a tap, the first starting open', async ({ page }) => {
  await openHome(page);
  const items = page.getByTestId('faq-item');
  await expect(items).toHaveCount(4);
  await expect(items.nth(0)).toHaveAttribute('open', '');
  await items.nth(3).locator('summary').tap();
  await expect(items.nth(3).getByText(/processed within 2–3 business days/)).toBeVisible();
  await expect(items.nth(0)).toHaveAttribute('open', '');
  await items.nth(0).locator('summary').tap();
  await expect(items.nth(0)).not.toHaveAttribute('open');
});

test("a featured card's buy button opens the checkout dialog on a phone", async ({ page, signedInUser: user }) => {
  await openHome(page);
  const card = page.getByTestId('featured-card').first();
  await expect(card.getByText(/^By: /)).toBeVisible();
  await expect(card.getByTestId('featured-price')).toContainText(/\$[\d,]+\.\d\d/);
  await card.getByRole('button', { name: 'Buy Now' }).tap();
  const dialog = page.getByRole('dialog', { name: 'Checkout' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(user.email)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).tap();
  await expect(dialog).toBeHidden();
});

test('the testimonials show three entries with 4 or 5 stars', async ({ page }) => {
  await openHome(page);
  const entries = page.getByTestId('testimonial');
  await expect(entries).toHaveCount(3);
  for (let i = 0; i < 3; i++) await expect(entries.nth(i).getByRole('img', { name: /^Rated [45] out of 5 stars$/ })).toBeVisible();
});
