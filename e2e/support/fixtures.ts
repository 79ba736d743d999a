import { randomUUID } from 'node:crypto';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

export interface E2EUser {
  name: string;
  email: string;
  password: string;
}

export function newUser(prefix = 'buyer'): E2EUser {
  return { name: `E2E ${prefix} ${randomUUID().slice(0, 6)}`, email: `${prefix}-${randomUUID()}@example.com`, password: 'Passw0rd!' };
}

/**
 * Signs up through the real API from the page's own request context, so the session cookie lands in
 * the browser context. Browsers send Origin on POST; so do we, as better-auth requires.
 */
export async function signUpViaApi(request: APIRequestContext, baseURL: string, user: E2EUser, options: { confirmEmail?: boolean } = {}): Promise<void> {
  const response = await request.post('/api/auth/sign-up/email', {
    data: { name: user.name, email: user.email, password: user.password },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
  if (options.confirmEmail !== false) await confirmEmailViaMailbox(request, user.email);
}

/**
 * The link of the newest e-mail to `to` whose subject starts with `subject`, read from the developer
 * mailbox (/dev/mailbox, demo mode) as a person would; waits for the outbox to deliver it.
 */
export async function mailedLink(request: APIRequestContext, to: string, subject: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const html = await (await request.get('/dev/mailbox')).text();
        for (const article of html.split('<article>').slice(1)) {
          const isMatch = article.includes(`<span class="to">${to}</span>`) && article.includes(`<h2>${subject}`);
          const href = /<a href="([^"]+)"/.exec(article)?.[1];
          if (isMatch && href) {
            link = href.replace(/&amp;/g, '&');
            return true;
          }
        }
        return false;
      },
      { timeout: 15_000, intervals: [100, 200, 300] },
    )
    .toBe(true);
  return link!;
}

/** Opens the confirmation link mailed to `email` in the request's own session: the address is confirmed. */
export async function confirmEmailViaMailbox(request: APIRequestContext, email: string): Promise<void> {
  const link = await mailedLink(request, email, 'Confirm your e-mail for BulkCart');
  const opened = await request.get(link, { maxRedirects: 0 });
  expect(opened.status()).toBe(302);
  expect(opened.headers().location).not.toContain('error=');
}

/** A buyer's warehouse: the saved ship-to of `signedInUser`, so a checkout or an API order needs no address. */
export const E2E_SHIP_TO = {
  company: 'E2E Traders Ltd',
  line1: '12 Harbour Road',
  line2: 'Unit 4',
  city: 'Portland',
  region: 'OR',
  postalCode: '97201',
  country: 'US',
  phone: '+1 503 555 0100',
} as const;

/** PUT /api/account/ship-to as the request's signed-in user. */
export async function saveShipTo(request: APIRequestContext, baseURL: string, shipTo: object = E2E_SHIP_TO): Promise<void> {
  const response = await request.put('/api/account/ship-to', { data: shipTo, headers: { origin: baseURL } });
  expect(response.status(), await response.text()).toBe(200);
}

export const test = base.extend<{ signedInUser: E2EUser; signIn: (page: Page, user?: E2EUser) => Promise<E2EUser> }>({
  /**
   * A fresh signed-in user for this test (each test gets its own account), with a saved ship-to
   * address as a returning buyer has. `signIn` gives one without, as a first-time buyer.
   */
  signedInUser: async ({ page, baseURL }, use) => {
    const user = newUser();
    await signUpViaApi(page.request, baseURL!, user);
    await saveShipTo(page.request, baseURL!);
    await use(user);
  },
  signIn: async ({ baseURL }, use) => {
    await use(async (page, user = newUser()) => {
      await signUpViaApi(page.request, baseURL!, user);
      return user;
    });
  },
});

export { expect };
