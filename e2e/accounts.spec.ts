import { expect, test, type Page } from '@playwright/test';
import { mailedLink, newUser, signUpViaApi } from './support/fixtures.ts';

// Every step here hashes or checks a password with production-strength scrypt: slow on a busy machine.
const HASHING = { timeout: 30_000 };
test.describe.configure({ timeout: 120_000 });

/**
 * Accounts a business can trust (docs/decisions/015-account-trust.md): the confirmation e-mail read
 * from the developer mailbox, the password reset by e-mail, and the account settings page.
 */

async function shotAt(page: Page, name: string, widths: number[] = [390, 1280]): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('sign up, open the confirmation e-mail from the mailbox, and the address is confirmed', async ({ page }) => {
  const user = newUser('confirm');
  await page.goto('/signup');
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const banner = page.getByTestId('confirm-email-banner');
  await expect(banner).toContainText('Confirm your e-mail.');
  await expect(banner).toContainText(user.email);

  await page.goto('/dev/mailbox');
  const message = page.locator('article', { hasText: user.email }).filter({ hasText: 'Confirm your e-mail for BulkCart' });
  await message.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/settings\?confirmed=1$/);
  await expect(page.getByText('Your e-mail is confirmed.')).toBeVisible();
  await expect(page.getByTestId('email-status')).toHaveText('✓ Confirmed');
  await expect(page.getByTestId('confirm-email-banner')).toHaveCount(0);
});

test('forgot password: the mailed link sets a new password, and only the new one signs in', async ({ page, baseURL }) => {
  const user = newUser('forgetful');
  await signUpViaApi(page.request, baseURL!, user);
  await page.request.post('/api/auth/sign-out', { headers: { origin: baseURL! } });

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByTestId('reset-requested')).toContainText(user.email);

  const link = await mailedLink(page.request, user.email, 'Reset your BulkCart password');
  expect(new URL(link).pathname).toBe('/reset-password');
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('Fresh1Pass');
  await page.getByLabel('New password again').fill('Fresh2Pass');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('The two passwords differ')).toBeVisible();
  await page.getByLabel('New password again').fill('Fresh1Pass');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByTestId('reset-done')).toContainText('Your password is changed', HASHING);

  // The link worked once.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('Third3Pass');
  await page.getByLabel('New password again').fill('Third3Pass');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('alert')).toContainText('invalid, already used or past its hour');

  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Something went wrong')).toBeVisible(HASHING);
  await page.getByLabel('Password', { exact: true }).fill('Fresh1Pass');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/$/, HASHING);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});

test('account settings: change the password, see the sessions, sign out everywhere else', async ({ page, browser, baseURL }) => {
  const user = newUser('settings');
  await signUpViaApi(page.request, baseURL!, user);
  // A second device.
  const other = await browser.newContext({ baseURL });
  const signedIn = await other.request.post('/api/auth/sign-in/email', { data: { email: user.email, password: user.password }, headers: { origin: baseURL! } });
  expect(signedIn.status()).toBe(200);

  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Account settings' })).toBeVisible();
  await expect(page.getByTestId('email-status')).toHaveText('✓ Confirmed');
  await expect(page.getByTestId('session-list').getByRole('listitem')).toHaveCount(2);
  await expect(page.getByText('This device')).toBeVisible();
  await shotAt(page, 'account-settings');

  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(page.getByText('Signed out 1 other session.')).toBeVisible();
  await expect(page.getByTestId('session-list').getByRole('listitem')).toHaveCount(1);
  expect((await (await other.request.get('/api/me')).json()).user).toBeNull();
  await other.close();

  await page.getByLabel('Current password').fill('WrongPass1');
  await page.getByLabel('New password', { exact: true }).fill('Changed1Pass');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toBeVisible(HASHING);
  await page.getByLabel('Current password').fill(user.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. Your other sessions were signed out.')).toBeVisible(HASHING);
});

test('screenshots: the recovery pages at 390 and 1280 px', async ({ page, baseURL }) => {
  await page.goto('/forgot-password');
  await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
  await shotAt(page, 'forgot-password');
  const user = newUser('shots');
  await signUpViaApi(page.request, baseURL!, user);
  await page.request.post('/api/auth/request-password-reset', { data: { email: user.email }, headers: { origin: baseURL! } });
  await page.goto(await mailedLink(page.request, user.email, 'Reset your BulkCart password'));
  await expect(page.getByRole('button', { name: 'Save new password' })).toBeVisible();
  await shotAt(page, 'reset-password');
});
