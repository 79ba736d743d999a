import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** The home page's banner carousel (its region is labelled 'Offers'). */
export function carousel(page: Page): Locator {
  return page.getByRole('region', { name: 'Offers' });
}

/** Hidden slides are aria-hidden and inert, so the one group a user can reach is the slide on show. */
export async function expectSlide(page: Page, n: 1 | 2 | 3): Promise<void> {
  const slide = carousel(page).getByRole('group');
  await expect(slide).toHaveCount(1);
  await expect(slide).toHaveAccessibleName(`${n} of 3`);
  await expect(slide).toBeInViewport({ ratio: 0.95 });
}
