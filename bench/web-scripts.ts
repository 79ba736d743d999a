/**
 * Script time on the main thread of public pages, two builds in turns: what a page's JavaScript costs
 * a phone, where Lighthouse's score is too noisy on a shared machine to show a change of a few dozen
 * milliseconds. Both builds are served by this checkout's server (each on its own fresh embedded
 * database with the demo catalog); Chromium with a 4x CPU slowdown and a phone's viewport opens each
 * page, alternating the builds (base then this, then this then base), and its sampling profiler
 * attributes each sample to the script whose code ran.
 *
 *   npm run bench:web-scripts -- --base-dist DIR [--dist DIR] [--routes '/search?q=gloves,/'] [--rounds 8]
 *   npm run bench:web-scripts -- --base-dist DIR --signed-in --routes '/product/{product},/cart'
 *
 * `--base-dist`: another build (e.g. `npx vite build --outDir DIR` in an earlier commit's checkout);
 * `--dist`: this one's, built into a temp folder when not given. Prints, per page and build, medians
 * over the rounds: our scripts' self time, the costliest of them by file (the hash left out), and the
 * long tasks' time over 50 ms as the page itself observed them (a blocking time, not Lighthouse's).
 * `--signed-in`: each page is opened with a buyer's session on each server (bench/web/session.ts, as
 * `bench:web` signs in), and `{product}` in a route is that session's featured product.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { buildWebApp } from './web/build-app.ts';
import { startAppServer } from './web/app-server.ts';
import { CHROMIUM_PATH } from './web/lighthouse-run.ts';
import { openBenchSession, type BenchSession } from './web/session.ts';
import { median } from './web/summary.ts';

const { values: options } = parseArgs({
  options: {
    'base-dist': { type: 'string' },
    dist: { type: 'string' },
    routes: { type: 'string', default: '/search?q=gloves,/' },
    rounds: { type: 'string', default: '8' },
    'signed-in': { type: 'boolean', default: false },
  },
});
if (!options['base-dist']) throw new Error('--base-dist DIR is required: the build to compare with');
const rounds = Number(options.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number ≥ 1');

type Side = 'base' | 'this';
interface PageLoad {
  /** Self time of samples in our own scripts, ms. */
  scripts: number;
  /** The same by file, the content hash left out (`zod-core`, `index`). */
  byFile: Map<string, number>;
  /** Long tasks' time over 50 ms, as the page's PerformanceObserver saw them, ms. */
  blocking: number;
}

async function loadOnce(browser: Browser, url: string, session: BenchSession | null): Promise<PageLoad> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
  try {
    if (session) {
      const [name = '', value = ''] = session.cookie.split(/=(.*)/s);
      await context.addCookies([{ name, value, url: new URL(url).origin }]);
    }
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen: number[] = ((globalThis as { __longTasks?: number[] }).__longTasks = []);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) seen.push(entry.duration);
      }).observe({ type: 'longtask' as 'mark', buffered: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'networkidle' });
    // The page's own heading: its code has run, not only the frame's.
    await page.locator('main :is(h1, h2)').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(300);
    const { profile } = await cdp.send('Profiler.stop');
    const longTasks = await page.evaluate(() => (globalThis as { __longTasks?: number[] }).__longTasks ?? []);
    const selfTime = new Map<number, number>();
    profile.samples?.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
    const byFile = new Map<string, number>();
    let scripts = 0;
    for (const node of profile.nodes) {
      const file = /\/assets\/(.+)-[\w-]{8}\.js$/.exec(node.callFrame.url)?.[1];
      if (!file) continue;
      const ms = (selfTime.get(node.id) ?? 0) / 1000;
      scripts += ms;
      byFile.set(file, (byFile.get(file) ?? 0) + ms);
    }
    return { scripts, byFile, blocking: longTasks.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0) };
  } finally {
    await context.close();
  }
}

function summarise(route: string, side: Side, loads: PageLoad[]): string {
  const files = new Set(loads.flatMap((load) => [...load.byFile.keys()]));
  const perFile = [...files]
    .map((file) => [file, median(loads.map((load) => load.byFile.get(file) ?? 0))] as const)
    .filter(([, ms]) => ms >= 1)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([file, ms]) => `${file} ${ms.toFixed(0)}`)
    .join(', ');
  const scripts = loads.map((load) => load.scripts);
  const blocking = loads.map((load) => load.blocking);
  return [
    `${route} ${side}: scripts ${median(scripts).toFixed(0)} ms (${scripts.map((ms) => ms.toFixed(0)).join(' / ')})`,
    `  blocking ${median(blocking).toFixed(0)} ms (${blocking.map((ms) => ms.toFixed(0)).join(' / ')})`,
    `  by file: ${perFile}`,
  ].join('\n');
}

const builtHere = options.dist === undefined;
const thisDist = builtHere ? buildWebApp() : path.resolve(options.dist!);
const servers = { base: await startAppServer(path.resolve(options['base-dist'])), this: await startAppServer(thisDist) };
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH });
try {
  const sessions: Record<Side, BenchSession | null> = options['signed-in']
    ? { base: await openBenchSession(servers.base.baseUrl), this: await openBenchSession(servers.this.baseUrl) }
    : { base: null, this: null };
  const urlOf = (side: Side, route: string) => servers[side].baseUrl + route.replace('{product}', sessions[side]?.productId ?? '{product}');
  console.log(`${rounds} rounds per page and build, in turns; medians (each round's figure in brackets), Chromium at a 4x CPU slowdown`);
  for (const route of options.routes.split(',')) {
    const loads: Record<Side, PageLoad[]> = { base: [], this: [] };
    // One unrecorded load of each first: the server's first answers build their serialisers.
    for (const side of ['base', 'this'] as const) await loadOnce(browser, urlOf(side, route), sessions[side]);
    for (let round = 0; round < rounds; round++) {
      const order: Side[] = round % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
      for (const side of order) loads[side].push(await loadOnce(browser, urlOf(side, route), sessions[side]));
    }
    console.log(summarise(route, 'base', loads.base));
    console.log(summarise(route, 'this', loads.this));
  }
} finally {
  await browser.close();
  await servers.base.stop();
  await servers.this.stop();
  if (builtHere) rmSync(thisDist, { recursive: true, force: true });
}
