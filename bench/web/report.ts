import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { BENCHMARKS_FILE } from './paths.ts';
import type { RunContext } from './machine.ts';
import { checkTargets, medianOf, rangeOf, type MeasuredRun, type PageSummary } from './summary.ts';

export const START_MARKER = '<!-- bench:web:start -->';
export const END_MARKER = '<!-- bench:web:end -->';

export interface ReportInput {
  context: RunContext;
  loadBefore: string;
  loadAfter: string;
  runsPerPage: number;
  pages: PageSummary[];
}

const kb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1000).toFixed(1)}` : 'n/a');
const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;

function scoreCell(page: PageSummary, pick: (run: MeasuredRun) => number): string {
  const [low, high] = rangeOf(page, pick);
  const middle = medianOf(page, pick);
  return low === high ? String(middle) : `${middle} (${low}–${high})`;
}

function pageLabel(page: PageSummary): string {
  return `${page.name} \`${page.shownPath ?? page.path}\`${page.signedIn ? ' (signed in)' : ''}`;
}

function buildSection(input: ReportInput): string {
  const { context, pages } = input;
  const benchmarkIndex = Math.round(pages.flatMap((page) => page.runs.map((run) => run.benchmarkIndex)).reduce((a, b) => Math.min(a, b), Infinity));
  const lines: string[] = [
    '## Page speed (`npm run bench:web`)',
    '',
    'Reproduce: `npm run bench:web` (about 6 minutes on 2 cores: builds the app, then 1 warm-up and 3 Lighthouse runs of each of 7 pages); ' +
      '`-- --dist DIR` measures an existing build, `-- --runs 5` changes the runs per page, `-- --pages Home,Cart` measures only those, `-- --no-write` only prints. ' +
      'Code: `bench/web.ts`, `bench/web/`.',
    '',
    `Lighthouse ${context.lighthouse}, mobile emulation (Lighthouse defaults: Moto G Power screen, simulated slow 4G, 4x CPU slowdown), ` +
      `${input.runsPerPage} runs per page, median (range in brackets). The real server (fresh embedded database with the demo catalog) serves a fresh production build.`,
    '',
    `- Date: ${context.date}`,
    `- Machine: ${context.machine}; Node ${context.node}; ${context.chromium}`,
    `- Commit: ${context.commit}`,
    `- Load (\`uptime\`, 1/5/15 min): ${input.loadBefore} before, ${input.loadAfter} after; Lighthouse benchmark index (lowest run): ${benchmarkIndex}`,
    '',
    '| Page | Performance | Accessibility | Best practices | LCP | TBT | CLS |',
    '|---|---|---|---|---|---|---|',
    ...pages.map(
      (page) =>
        `| ${pageLabel(page)} | ${scoreCell(page, (run) => run.performance)} | ${scoreCell(page, (run) => run.accessibility)} | ${scoreCell(page, (run) => run.bestPractices)} | ` +
        `${ms(medianOf(page, (run) => run.lcpMs))} | ${ms(medianOf(page, (run) => run.tbtMs))} | ${medianOf(page, (run) => run.cls).toFixed(3)} |`,
    ),
    '',
    "Bytes each page loads, in KB (1 KB = 1000 bytes). *gzip*: our own files from the build, gzip -9, the budget's unit. " +
      '*sent*: what Lighthouse saw on the wire (the server sends brotli, and headers count). Images are WebP and are not compressed again.',
    '',
    '| Page | JS gzip (files) | JS sent | CSS gzip | CSS sent | Images sent (files) | Total sent |',
    '|---|---|---|---|---|---|---|',
    ...pages.map(
      (page) =>
        `| ${pageLabel(page)} | ${kb(medianOf(page, (run) => run.bytes.js.gzip))} (${medianOf(page, (run) => run.bytes.js.files)}) | ${kb(medianOf(page, (run) => run.bytes.js.transfer))} | ` +
        `${kb(medianOf(page, (run) => run.bytes.css.gzip))} | ${kb(medianOf(page, (run) => run.bytes.css.transfer))} | ` +
        `${kb(medianOf(page, (run) => run.bytes.images.transfer))} (${medianOf(page, (run) => run.bytes.images.files)}) | ${kb(medianOf(page, (run) => run.bytes.totalTransfer))} |`,
    ),
    '',
    'Budget (docs/decisions/005-page-weight.md):',
    '',
    ...checkTargets(pages).map((check) => `- ${check.isMet ? 'met' : '**missed**'}: ${check.label} (${check.actual})`),
  ];
  const shortfalls = pages.flatMap((page) => {
    const counts = new Map<string, number>();
    for (const audit of page.runs.flatMap((run) => run.failedAudits)) counts.set(audit, (counts.get(audit) ?? 0) + 1);
    const failed = [...counts].map(([audit, count]) => `${audit} (${count} of ${page.runs.length} runs)`);
    return failed.length > 0 ? [`- ${page.name}: ${failed.join('; ')}`] : [];
  });
  if (shortfalls.length > 0) lines.push('', 'Audits scoring below 0.9:', '', ...shortfalls);
  lines.push(
    '',
    "TBT and the performance score move with the machine's load: Lighthouse scales the main-thread work it observes by its CPU slowdown, " +
      'so compare runs made at a similar load, and prefer the byte counts, which do not depend on it.',
  );
  return lines.join('\n');
}

/**
 * Replaces only what lies between this benchmark's markers: other benchmarks write other sections of
 * the same file, possibly at the same moment, so the file is read again right before writing.
 */
export function writeReportSection(input: ReportInput): void {
  const section = `${START_MARKER}\n${buildSection(input)}\n${END_MARKER}`;
  const current = existsSync(BENCHMARKS_FILE) ? readFileSync(BENCHMARKS_FILE, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(START_MARKER);
  const end = current.indexOf(END_MARKER);
  const next =
    start !== -1 && end > start
      ? `${current.slice(0, start)}${section}${current.slice(end + END_MARKER.length)}`
      : `${current.replace(/\s*$/, '')}\n\n${section}\n`;
  writeFileSync(BENCHMARKS_FILE, next);
}

export function renderReportSection(input: ReportInput): string {
  return buildSection(input);
}
