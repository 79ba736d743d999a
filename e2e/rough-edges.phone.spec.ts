import type { Locator, Page } from '@playwright/test';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { expect, newUser, signUpViaApi, test } from './support/fixtures.ts';

/** What a new user hit on a phone, at 390 px where it was seen. */
test.use({ viewport: { width: 390, height: 844 } });

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not rendered');
  return box;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test('a notice covers neither the logo, the menu button nor the avatar', async ({ page, baseURL }) => {
  const user = newUser('notice');
  await signUpViaApi(page.request, baseURL!, user);
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  // The login notice lives 1000 ms: its box is read in the page on the frame it shows (the navbar,
  // fixed at the top, is measured after).
  const [noticeBox] = await Promise.all([
    page
      .waitForFunction(
        (text) => {
          const notice = Array.from(document.querySelectorAll<HTMLElement>('[popover] .alert')).find(
            (el) => el.querySelector('p')?.textContent === text && el.checkVisibility(),
          );
          const r = notice?.getBoundingClientRect();
          return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
        },
        MESSAGES.loginSuccess,
        { polling: 'raf', timeout: 7_000 },
      )
      .then((handle) => handle.jsonValue() as Promise<Box>),
    page.getByRole('button', { name: 'Sign In', exact: true }).click(),
  ]);
  const header = page.getByRole('banner');
  const pressable = [
    header.getByRole('link', { name: 'Bulk Cart' }),
    header.getByRole('button', { name: 'Open menu' }),
    header.getByRole('button', { name: 'Account menu' }),
  ];
  await expect(pressable[2]!).toBeVisible();
  for (const target of pressable) expect(overlaps(noticeBox, await boxOf(target))).toBe(false);
  const headerBox = await boxOf(header);
  expect(noticeBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
  expect(noticeBox.x + noticeBox.width).toBeLessThanOrEqual(390);
});

test('Escape closes the phone menu and the avatar dropdown, focus stays on their buttons', async ({ page, signedInUser: _user }) => {
  await page.goto('/');
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  const menu = page.getByRole('banner').locator('ul.dropdown-content');
  await menuButton.tap();
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  // It opens again from the keyboard and with a tap.
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await menuButton.tap();
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');

  const avatar = page.getByRole('button', { name: 'Account menu' });
  const logout = page.getByRole('button', { name: 'Logout' });
  await avatar.tap();
  await expect(logout).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(logout).toBeHidden();
  await expect(avatar).toBeFocused();
  await avatar.tap();
  await expect(logout).toBeVisible();
});

test('All Product in Table View shows each product stacked, price and action on screen', async ({ page, signedInUser: _user }) => {
  await page.goto('/allproduct?view=table');
  await expect(page.getByRole('heading', { name: 'All Product' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Products' }).getByRole('listitem');
  await expect(items.first()).toBeVisible();
  await expect(page.getByRole('table')).toBeHidden();
  // Other journeys add products at the same time, some without a price ("Price on request").
  const first = items.filter({ hasText: /\$\d/ }).first();
  const price = first.getByText(/^\$\d/).first();
  const action = first.getByRole('link', { name: /View Details|Update/ });
  for (const part of [price, action]) {
    await expect(part).toBeInViewport({ ratio: 1 });
    const box = await boxOf(part);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  // Nothing on the page is wider than the screen: no sideways scroll to discover.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'all-product-table-view');
});

test('"Forgot your password?" leads to a reset form that fits the phone', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).tap();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'forgot-password');
});

test.describe('on a server without Google', () => {
  let server: AppServer | undefined;
  test.beforeAll(async () => {
    // A second server of its own, started from scratch: longer than a test on a busy machine.
    test.setTimeout(200_000);
    server = await startAppServer({ SEED_DEMO: 'false' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the disabled Google button says why without hovering', async ({ page }) => {
    for (const [path, label] of [
      ['/login', 'Login with Google'],
      ['/signup', 'Continue with Google'],
    ] as const) {
      await page.goto(`${server!.baseUrl}${path}`);
      const button = page.getByRole('button', { name: label });
      await expect(button).toBeDisabled();
      const reason = page.getByText('Google sign-in is not configured on this server.');
      await expect(reason).toBeVisible();
      await expect(reason).toBeInViewport();
      await expect(button).toHaveAccessibleDescription('Google sign-in is not configured on this server.');
    }
    await shot(page, 'google-disabled');
  });
});
