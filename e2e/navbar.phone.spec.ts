import { expect, test } from './support/fixtures.ts';

/** The navbar on a phone (Pixel 7, touch). */

test('the phone menu closes once a link in it is tapped, uncovering the page', async ({ page, signedInUser: _user }) => {
  await page.goto('/');
  const menu = page.getByRole('banner').locator('ul.dropdown-content');
  await expect(menu).toBeHidden();

  await page.getByRole('button', { name: 'Open menu' }).tap();
  await expect(menu).toBeVisible();
  await menu.getByRole('link', { name: 'Categories' }).tap();

  await expect(page).toHaveURL(/\/categories$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Select From Our categories' })).toBeVisible();
  await expect(menu).toBeHidden();
  // What the menu covered is on top again: a tap at the category picker lands on the picker.
  const picker = page.getByLabel('Category');
  expect(
    await picker.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return document.elementFromPoint(box.left + 20, box.top + box.height / 2) === el;
    }),
  ).toBe(true);

  // The link of the page already shown closes the menu too.
  await page.getByRole('button', { name: 'Open menu' }).tap();
  await expect(menu).toBeVisible();
  await menu.getByRole('link', { name: 'Categories' }).tap();
  await expect(menu).toBeHidden();
  await page.screenshot({ path: test.info().outputPath('phone-menu-closed.png') });
});
