import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { expect, newUser, signUpViaApi, test, type E2EUser } from './support/fixtures.ts';
import { expectNotice, expectNoticeFrom } from './support/notices.ts';

function nav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main' });
}

async function fillSignIn(page: Page, user: Pick<E2EUser, 'email' | 'password'>): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
}

async function openAccountMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  return page.getByRole('button', { name: 'Logout' });
}

test('sign up, sign out, sign in, and come back to the protected page asked for', async ({ page }) => {
  const user = newUser('journey');
  await page.goto('/signup');
  await expect(page).toHaveTitle('wholesale-platform-signup');
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();

  const signedUp = await expectNotice(page, { text: MESSAGES.signupSuccess, role: 'status' });
  await expect(page).toHaveURL(/\/$/);
  await expect(nav(page).getByRole('link', { name: 'All Product' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);
  await expect(signedUp).toBeHidden();

  const logout = await openAccountMenu(page);
  await expect(page.getByTestId('user-display-name')).toHaveText(user.name);
  await expect(page.getByTestId('user-email')).toHaveText(user.email);
  await logout.click();
  await expectNotice(page, { text: MESSAGES.logoutSuccess, role: 'status' });
  await expect(nav(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'All Product' })).toHaveCount(0);

  // Signed out, a protected page sends the visitor to sign in, and back there afterwards.
  await page.goto('/cart?from=test');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page).toHaveTitle('wholesale-platform-login');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await fillSignIn(page, user);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const loggedIn = await expectNotice(page, { text: MESSAGES.loginSuccess, role: 'status' });
  await expect(page).toHaveURL(/\/cart\?from=test$/);
  await expect(page).toHaveTitle('Cart');
  await expect(loggedIn).toBeHidden();
});

test('a wrong password and an unknown email both get the same failure notice', async ({ page, baseURL }) => {
  const user = newUser('wrongpw');
  await signUpViaApi(page.request, baseURL!, user);
  await page.context().clearCookies();
  await page.goto('/login');
  for (const attempt of [
    { email: user.email, password: 'Wrong0ne!' },
    { email: `nobody-${randomUUID()}@example.com`, password: user.password },
  ]) {
    await fillSignIn(page, attempt);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const notice = await expectNotice(page, { text: MESSAGES.somethingWentWrong, role: 'alert' });
    await expect(notice).toBeHidden();
    await expect(page).toHaveURL(/\/login$/);
  }
  await expect(nav(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
});

test('the sign-in form checks its fields, toggles the password, and is pre-filled with the demo buyer', async ({ page }) => {
  await page.goto('/login');
  const email = page.getByLabel('Email');
  const password = page.getByLabel('Password', { exact: true });
  await expect(email).toHaveValue('buyer@bulkcart.demo');
  await expect(password).toHaveValue('DemoBuyer1');

  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');

  await email.fill('not-an-email');
  await password.fill('');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');

  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByRole('link', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByRole('link', { name: 'Already registered' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the demo buyer signs in with the pre-filled form', async ({ page }) => {
  await page.goto('/login');
  // The watch is in place before the click: the success notice lives 1000 ms.
  await expectNoticeFrom(page, { text: MESSAGES.loginSuccess, role: 'status' }, () => page.getByRole('button', { name: 'Sign In', exact: true }).click());
  await expect(page).toHaveURL(/\/$/);
  await openAccountMenu(page);
  await expect(page.getByTestId('user-email')).toHaveText('buyer@bulkcart.demo');
});

test('the sign-up form shows the spec’s rules and a taken email in red under the form', async ({ page, baseURL }) => {
  const taken = newUser('taken');
  await signUpViaApi(page.request, baseURL!, taken);
  await page.context().clearCookies();
  await page.goto('/signup');
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();

  await page.getByLabel('Name').fill('Abc');
  await page.getByLabel('Email').fill('nope');
  await page.getByLabel('Password', { exact: true }).fill('lowercase1');
  await page.getByLabel('Photo URL (optional)').fill('http://images.example/me.png');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText(MESSAGES.nameTooShort, { exact: true })).toBeVisible();
  await expect(page.getByText(MESSAGES.weakPassword, { exact: true })).toBeVisible();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await expect(page.getByText('Photo URL must be an https URL')).toBeVisible();

  await page.getByLabel('Name').fill('Second Owner');
  await page.getByLabel('Email').fill(taken.email);
  await page.getByLabel('Password', { exact: true }).fill('Passw0rd!');
  await page.getByLabel('Photo URL (optional)').fill('');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const error = page.getByTestId('signup-error');
  await expect(error).toHaveText('User already exists. Use another email.');
  // Red, and under the form's button.
  const [r, g, b] = await error.evaluate((el) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d')!;
    context.fillStyle = getComputedStyle(el).color;
    context.fillRect(0, 0, 1, 1);
    return [...context.getImageData(0, 0, 1, 1).data];
  });
  expect(r).toBeGreaterThan((g ?? 0) + 60);
  expect(r).toBeGreaterThan((b ?? 0) + 60);
  const errorBox = await error.boundingBox();
  const buttonBox = await page.getByRole('button', { name: 'Sign Up' }).boundingBox();
  expect(errorBox!.y).toBeGreaterThan(buttonBox!.y);
  await expect(page).toHaveURL(/\/signup$/);
});

test('the avatar menu shows the default picture, the name, the email and Logout', async ({ page, signedInUser }) => {
  await page.goto('/');
  const avatar = page.getByRole('button', { name: 'Account menu' }).locator('img');
  await expect(avatar).toHaveAttribute('src', '/images/default-avatar.svg');
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const logout = await openAccountMenu(page);
  await expect(page.getByTestId('user-display-name')).toHaveText(signedInUser.name);
  await expect(page.getByTestId('user-email')).toHaveText(signedInUser.email);
  await expect(logout).toBeVisible();
});

test('a signed-in user who opens /login or /signup is sent on at once', async ({ page, signedInUser: _user }) => {
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toHaveCount(0);
});

test.describe('Google sign-in through the local OpenID provider', () => {
  async function completeProviderLogin(page: Page, login: string): Promise<void> {
    await page.waitForURL((url) => url.origin === process.env.E2E_OIDC_ISSUER, { waitUntil: 'domcontentloaded' });
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any-password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    const consent = page.getByRole('button', { name: 'Continue' });
    await consent.waitFor();
    await consent.click();
  }

  test('“Login with Google” signs in and returns to the page the user came from', async ({ page, baseURL }) => {
    const login = `g-${randomUUID().slice(0, 8)}`;
    await page.goto('/myproduct');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole('button', { name: 'Login with Google' }).click();
    await completeProviderLogin(page, login);
    await page.waitForURL(`${baseURL}/myproduct`);
    await expect(page).toHaveTitle('My Product');
    await openAccountMenu(page);
    await expect(page.getByTestId('user-display-name')).toHaveText(`Google ${login}`);
    await expect(page.getByTestId('user-email')).toHaveText(`${login}@gmail.test`);
  });

  test('“Continue with Google” on the sign-up page creates the account and lands on home', async ({ page, baseURL }) => {
    const login = `g-${randomUUID().slice(0, 8)}`;
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await completeProviderLogin(page, login);
    await page.waitForURL(`${baseURL}/`);
    await expect(nav(page).getByRole('link', { name: 'My Product' })).toBeVisible();
    await openAccountMenu(page);
    await expect(page.getByTestId('user-email')).toHaveText(`${login}@gmail.test`);
    // Google vouched for the address (email_verified): confirmed without a link.
    expect((await (await page.request.get('/api/me')).json()).user.emailVerified).toBe(true);
    await expect(page.getByTestId('confirm-email-banner')).toHaveCount(0);
  });

  test('a sign-in cancelled at the provider returns to the sign-in page without a word', async ({ page, baseURL }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login with Google' }).click();
    await page.waitForURL((url) => url.origin === process.env.E2E_OIDC_ISSUER, { waitUntil: 'domcontentloaded' });
    // The dev login form has an abort link that answers the app with access_denied.
    await page.getByRole('link', { name: /Cancel/i }).click();
    await page.waitForURL((url) => url.href.startsWith(`${baseURL}/login`));
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await expect(page.locator('[popover] .alert')).toHaveCount(0);
    await expect(nav(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  });
});

test("a session ended behind the app's back sends the next signed-in page to /login, and signing in returns there", async ({ page, baseURL, signedInUser }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  // Signed out from elsewhere (another tab, or the session expired): the page still believes otherwise.
  const signOut = await page.request.post('/api/auth/sign-out', { headers: { origin: baseURL! }, data: {} });
  expect(signOut.status()).toBe(200);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cart' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(page.getByText('Please sign in first.')).toHaveCount(0);

  // A refused sign-in (better-auth answers 401) leaves the form where it is.
  await page.getByLabel('Email').fill(signedInUser.email);
  await page.getByLabel('Password', { exact: true }).fill('Wrong-passw0rd!');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Password', { exact: true }).fill(signedInUser.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByText('Cart is Empty')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});
