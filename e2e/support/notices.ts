import type { Locator, Page } from '@playwright/test';

export interface ExpectedNotice {
  /** The notice's text, exactly, spaces included (` not Delete !` starts with one; locators fold them). */
  text: string;
  /** Its heading, when the test cares. */
  title?: string;
  /** `status` for good news, `alert` for bad; any when not given. */
  role?: 'status' | 'alert';
}

/**
 * Waits for a visible notice and returns its text's locator. One check in the page on every frame:
 * a success notice lives 1000 ms and can come and go between two ordinary polls.
 */
export async function expectNotice(page: Page, notice: string | ExpectedNotice): Promise<Locator> {
  const expected = typeof notice === 'string' ? { text: notice } : notice;
  await page.waitForFunction(
    ({ text, title, role }) =>
      Array.from(document.querySelectorAll<HTMLElement>('[popover] [role="alert"], [popover] [role="status"]')).some(
        (el) =>
          el.querySelector('p')?.textContent === text &&
          (title === undefined || el.querySelector('h3')?.textContent === title) &&
          (role === undefined || el.getAttribute('role') === role) &&
          el.checkVisibility(),
      ),
    expected,
    { polling: 'raf', timeout: 7_000 },
  );
  return page.locator('[popover] .alert p').filter({ hasText: expected.text.replace(/\s+/g, ' ').trim() });
}

/**
 * Runs `action` with the watch for the notice already in place: on a busy machine, starting to look
 * only after the click can miss a notice that lives 1000 ms.
 */
export async function expectNoticeFrom(page: Page, notice: string | ExpectedNotice, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([expectNotice(page, notice), action()]);
}
