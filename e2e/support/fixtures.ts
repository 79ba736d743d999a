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
export async function signUpViaApi(request: APIRequestContext, baseURL: string, user: E2EUser): Promise<void> {
  const response = await request.post('/api/auth/sign-up/email', {
    data: { name: user.name, email: user.email, password: user.password },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export const test = base.extend<{ signedInUser: E2EUser; signIn: (page: Page, user?: E2EUser) => Promise<E2EUser> }>({
  /** A fresh signed-in user for this test (each test gets its own account). */
  signedInUser: async ({ page, baseURL }, use) => {
    const user = newUser();
    await signUpViaApi(page.request, baseURL!, user);
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
