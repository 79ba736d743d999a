/**
 * Page-speed benchmark (docs/decisions/005-page-weight.md): builds the web app, starts the real server on a fresh embedded
 * database with the demo catalog, and runs Lighthouse (mobile) a few times per page, writing the
 * medians to docs/benchmarks.md between the bench:web markers.
 *
 *   npm run bench:web                     build, measure, write the section
 *   npm run bench:web -- --dist DIR       measure an existing build instead of building
 *   npm run bench:web -- --runs 5         runs per page (default 3)
 *   npm run bench:web -- --no-write       print the section instead of writing it
 *   npm run bench:web -- --json FILE      also save every run's numbers
 *   npm run bench:web -- --pages Home,Cart   only these pages (by name; a quick look, e.g. at accessibility)
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildWebApp } from './web/build-app.ts';
import { startAppServer, type AppServer } from './web/app-server.ts';
import { openBenchSession } from './web/session.ts';
import { launchChromium, runLighthouse, type PageRun } from './web/lighthouse-run.ts';
import { measurePageBytes } from './web/page-bytes.ts';
import { describeRunContext, readLoad } from './web/machine.ts';
import { renderReportSection, writeReportSection } from './web/report.ts';
import { checkTargets, type PageSummary } from './web/summary.ts';

const { values: options } = parseArgs({
  options: {
    dist: { type: 'string' },
    runs: { type: 'string', default: '3' },
    'no-write': { type: 'boolean', default: false },
    json: { type: 'string' },
    pages: { type: 'string' },
  },
});
const runsPerPage = Number(options.runs);
if (!Number.isInteger(runsPerPage) || runsPerPage < 1) throw new Error('--runs must be a whole number ≥ 1');

/** Lighthouse sometimes fails a run on a busy machine (no trace, a timeout): try that page again. */
async function runLighthouseWithRetry(...args: Parameters<typeof runLighthouse>): Promise<PageRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      const run = await runLighthouse(...args);
      if (Number.isFinite(run.performance)) return run;
      if (attempt >= 3) throw new Error(`no performance score for ${args[1]} after ${attempt} tries`);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`retrying ${args[1]}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

async function main(): Promise<void> {
  const loadBefore = readLoad();
  const context = describeRunContext();
  const builtHere = options.dist === undefined;
  const webDist = builtHere ? buildWebApp() : path.resolve(options.dist!);
  console.log(`Measuring the build in ${webDist}`);

  let server: AppServer | null = null;
  let chrome: Awaited<ReturnType<typeof launchChromium>> | null = null;
  const stopAll = async () => {
    chrome?.kill();
    chrome = null;
    await server?.stop();
    server = null;
  };
  process.once('SIGINT', () => void stopAll().finally(() => process.exit(130)));

  try {
    server = await startAppServer(webDist);
    const session = await openBenchSession(server.baseUrl);
    const allPages: PageSummary[] = [
      { name: 'Home', path: '/', signedIn: false, runs: [] },
      { name: 'Login', path: '/login', signedIn: false, runs: [] },
      { name: 'All Product', path: '/allproduct', signedIn: true, runs: [] },
      { name: 'Categories', path: '/categories', signedIn: true, runs: [] },
      { name: 'Product detail', path: `/product/${session.productId}`, shownPath: '/product/{id}', signedIn: true, runs: [] },
      { name: 'Search', path: '/search?q=gloves', signedIn: false, runs: [] },
      { name: 'Cart', path: '/cart', signedIn: true, accessibilityOnly: true, runs: [] },
    ];
    const chosen = options.pages?.split(',').map((name) => name.trim().toLowerCase());
    const pages = chosen ? allPages.filter((page) => chosen.includes(page.name.toLowerCase())) : allPages;
    if (pages.length === 0) throw new Error(`--pages names none of: ${allPages.map((page) => page.name).join(', ')}`);
    chrome = await launchChromium();
    // One uncounted run, so the first counted one does not pay for a cold server and browser.
    await runLighthouseWithRetry(chrome, `${server.baseUrl}/`, null);
    // Round by round rather than page by page, so a burst of load on the shared machine hits every page alike.
    for (let round = 1; round <= runsPerPage; round++) {
      for (const page of pages) {
        const run = await runLighthouseWithRetry(chrome, `${server.baseUrl}${page.path}`, page.signedIn ? session.cookie : null);
        page.runs.push({ ...run, bytes: measurePageBytes(run.requests, server.baseUrl, webDist) });
        console.log(
          `run ${round}/${runsPerPage} ${page.path}: performance ${run.performance}, accessibility ${run.accessibility}, LCP ${Math.round(run.lcpMs)} ms, TBT ${Math.round(run.tbtMs)} ms, CLS ${run.cls.toFixed(3)}`,
        );
      }
    }
    await stopAll();

    const report = { context, loadBefore, loadAfter: readLoad(), runsPerPage, pages };
    if (options.json) writeFileSync(options.json, JSON.stringify(report, null, 2));
    if (options['no-write']) console.log(`\n${renderReportSection(report)}\n`);
    else {
      writeReportSection(report);
      console.log('\nWrote the bench:web section of docs/benchmarks.md');
    }
    const missed = checkTargets(pages).filter((check) => !check.isMet);
    for (const check of missed) console.log(`missed: ${check.label} (${check.actual})`);
    if (missed.length === 0) console.log('Every page-speed target is met.');
  } finally {
    await stopAll();
    if (builtHere) rmSync(webDist, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
