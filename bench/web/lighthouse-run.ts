import { launch, type LaunchedChrome } from 'chrome-launcher';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lighthouse, { type Flags, type Result } from 'lighthouse';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Quiet on a closed network: no component updates, sync or field trials fetched mid-measurement.
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** One request the page made, as Lighthouse's network-requests audit lists it. */
export interface LoadedRequest {
  url: string;
  resourceType: string;
  transferSize: number;
  resourceSize: number;
}

/** What one Lighthouse run of one page yields. */
export interface PageRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  totalTransfer: number;
  requests: LoadedRequest[];
  benchmarkIndex: number;
  /** Audits of the three categories that did not pass, to say why a score is short. */
  failedAudits: string[];
  warnings: string[];
}

export async function launchChromium(): Promise<LaunchedChrome> {
  return launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS, logLevel: 'error' });
}

/**
 * One Lighthouse navigation with its default (mobile) settings: a mid-range phone's screen, simulated
 * slow 4G and a 4x CPU slowdown. Lighthouse clears the origin's cache and storage before each run.
 */
export async function runLighthouse(chrome: LaunchedChrome, url: string, cookie: string | null): Promise<PageRun> {
  const flags: Flags = {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    formFactor: 'mobile',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  };
  const result = await lighthouse(url, flags);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  keepReport(lhr);
  return toPageRun(lhr);
}

/**
 * With BENCH_WEB_REPORTS=DIR, each run's whole Lighthouse report is kept there as JSON (open it in
 * the Lighthouse viewer): the LCP element and its phases, the request chains, the main-thread tasks.
 */
function keepReport(lhr: Result): void {
  const dir = process.env.BENCH_WEB_REPORTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const page = new URL(lhr.finalDisplayedUrl).pathname.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';
  writeFileSync(path.join(dir, `${page}-${new Date(lhr.fetchTime).getTime()}.json`), JSON.stringify(lhr));
}

function toPageRun(lhr: Result): PageRun {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const details = lhr.audits['network-requests']?.details;
  const items = details && details.type === 'table' ? details.items : [];
  const requests = items.map((item) => ({
    url: String(item.url ?? ''),
    resourceType: String(item.resourceType ?? 'Other'),
    transferSize: Number(item.transferSize ?? 0),
    resourceSize: Number(item.resourceSize ?? 0),
  }));
  const failedAudits = ['performance', 'accessibility', 'best-practices'].flatMap((categoryId) =>
    (lhr.categories[categoryId]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .flatMap((ref) => {
        const audit = lhr.audits[ref.id];
        if (!audit || audit.score === null || audit.score >= 0.9) return [];
        return [`${categoryId}/${ref.id}`];
      }),
  );
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    totalTransfer: numeric('total-byte-weight'),
    requests,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    failedAudits,
    warnings: lhr.runWarnings.map(String),
  };
}
