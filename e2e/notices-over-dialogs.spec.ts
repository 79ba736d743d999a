import { devices, type Locator, type Page, type TestInfo } from '@playwright/test';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { expect, test } from './support/fixtures.ts';
import { productOfAnotherSeller } from './support/shop-api.ts';

/**
 * A notice that appears while a modal dialog is open (the checkout's "below MOQ" notice) must be
 * painted above the dialog, take a click, reach screen readers once, and leave the dialog modal: Tab
 * never reaches the page behind it, and Escape still closes it. At desktop and phone size.
 *
 * The notices' timers are paused once the dialog is open (Playwright's clock), so a notice goes only
 * when it is dismissed: nothing here races its 3 seconds, and "gone after the click" means the click.
 */
const { defaultBrowserType: _browser, ...pixel7 } = devices['Pixel 7'];

const SIZES = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } }, touch: false },
  { name: 'phone (Pixel 7)', options: pixel7, touch: true },
] as const;

const MIN_QUANTITY = 20;
const NOTICE = { title: MESSAGES.moqTitle, text: MESSAGES.moqText(MIN_QUANTITY) };

function noticeWith(page: Page, text: string): Locator {
  return page.locator('[popover] .alert').filter({ has: page.getByText(text, { exact: true }) });
}

/**
 * The live regions a screen reader is told about (Chromium's accessibility tree, not the DOM) whose
 * text includes `text`, each with whether it is one of the notices.
 */
async function liveRegionsWith(page: Page, text: string): Promise<{ role: string; inNotices: boolean }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    type AXNode = (typeof nodes)[number];
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const textOf = (n: AXNode): string =>
      n.role?.value === 'StaticText'
        ? String(n.name?.value ?? '')
        : (n.childIds ?? [])
            .map((id) => byId.get(id))
            .filter((c): c is AXNode => c !== undefined)
            .map(textOf)
            .join(' ');
    const isLive = (n: AXNode) => !n.ignored && (n.properties ?? []).some((p) => p.name === 'live' && p.value.value !== 'off');
    const regions = nodes.filter((n) => isLive(n) && textOf(n).includes(text));
    return await Promise.all(
      regions.map(async (n) => {
        const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: n.backendDOMNodeId! });
        const { result } = await cdp.send('Runtime.callFunctionOn', {
          objectId: object.objectId!,
          functionDeclaration: 'function () { return this.closest("[popover]") !== null; }',
          returnByValue: true,
        });
        return { role: String(n.role?.value), inNotices: result.value === true };
      }),
    );
  } finally {
    await cdp.detach();
  }
}

/**
 * Whether a tap at the middle of `target` reaches it: nothing is painted over it and it is not inert
 * (a notice outside a showModal() dialog is painted above it, yet inert: taps go to the dialog).
 */
async function takesTapAtItsMiddle(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && el.contains(hit);
  });
}

/** Where focus is: in the dialog, in the notices, nowhere (the document itself), or on the page behind. */
async function focusPlace(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'nowhere';
    if (el.closest('dialog[open]')) return 'dialog';
    if (el.closest('[popover]')) return 'notice';
    return `page: ${el.outerHTML.slice(0, 80)}`;
  });
}

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

for (const size of SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use(size.options);

    test('a notice over the open checkout dialog is on top, dismissed by a tap or click, announced once, and the dialog stays modal', async ({
      page,
      baseURL,
      signedInUser: _buyer,
    }, testInfo) => {
      const press = (target: Locator) => (size.touch ? target.tap() : target.click());
      const product = await productOfAnotherSeller(baseURL!, { mainquantity: 300, minquantity: MIN_QUANTITY });
      await page.clock.install();
      await page.goto(`/product/${product._id}`);
      await expect(page.getByRole('heading', { name: product.name })).toBeVisible();
      await page.getByRole('spinbutton', { name: 'Quantity' }).fill('5');
      const buyNow = page.getByRole('button', { name: 'Buy Now' });
      await press(buyNow);
      const dialog = page.getByRole('dialog', { name: 'Checkout' });
      await expect(dialog).toBeVisible();
      // The dialog loads the buyer's ship-to first; pausing the clock before that answer lands would
      // freeze the query's timers and leave Buy disabled (seen under load).
      await expect(dialog.getByRole('button', { name: 'Buy', exact: true })).toBeEnabled();
      await page.clock.pauseAt(Date.now() + 1_000);

      // The page behind is out of reach: a tap where Buy Now is lands on the dialog's backdrop.
      await expect.poll(() => takesTapAtItsMiddle(buyNow)).toBe(false);

      await press(dialog.getByRole('button', { name: 'Buy', exact: true }));
      const notice = noticeWith(page, NOTICE.text);
      await expect(notice).toBeVisible();
      await expect(notice.getByRole('heading', { name: NOTICE.title })).toBeVisible();
      await expect(dialog).toBeVisible();
      expect(await takesTapAtItsMiddle(notice), 'a tap on the notice reaches it').toBe(true);
      await screenshot(page, testInfo, `notice-over-dialog-${size.touch ? 'phone' : 'desktop'}`);

      // Exactly one live region carries the text, and it is the notice the user sees.
      expect(await liveRegionsWith(page, NOTICE.text)).toEqual([{ role: 'alert', inNotices: true }]);

      // Tab goes round the dialog (and the notice's ✕), never to the page behind.
      await dialog.getByRole('spinbutton', { name: 'Quantity' }).focus();
      const places: string[] = [];
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        places.push(await focusPlace(page));
      }
      expect(
        places.filter((p) => !['dialog', 'notice', 'nowhere'].includes(p)),
        `focus went to ${places.join(', ')}`,
      ).toEqual([]);
      expect(places).toContain('dialog');
      expect(places).toContain('notice');

      // Timers are paused: only the tap or click can take the notice away.
      await press(notice.getByRole('button', { name: 'Dismiss' }));
      await expect(notice).toHaveCount(0);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Buy', exact: true })).toBeEnabled();

      // A second refusal is a new notice, again the only live region with its text.
      await press(dialog.getByRole('button', { name: 'Buy', exact: true }));
      await expect(notice).toHaveCount(1);
      expect(await liveRegionsWith(page, NOTICE.text)).toEqual([{ role: 'alert', inNotices: true }]);

      await dialog.getByRole('spinbutton', { name: 'Quantity' }).focus();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      // Focus is back where it was, and the page takes clicks again.
      await expect(buyNow).toBeFocused();
      expect(await takesTapAtItsMiddle(buyNow)).toBe(true);
    });
  });
}
