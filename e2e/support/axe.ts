import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/**
 * axe-core run inside the page (STACK.md: @axe-core/playwright wants a newer Node, so the engine is
 * injected with addScriptTag; the page's CSP forbids inline scripts, so the context that runs it is
 * opened with `bypassCSP: true`).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1, levels A and AA, as the accessibility review measured them. */
const AXE_OPTIONS = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] };

export interface AxeFinding {
  rule: string;
  impact: string | null;
  help: string;
  targets: string[];
  /** The first node's failure summary (contrast figures, missing names). */
  summary: string;
}

interface AxeResultShape {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }>;
}

/** Every violation axe finds in the page as it is now (dialogs, panels and notices included). */
export async function axeFindings(page: Page, { clockPaused = false } = {}): Promise<AxeFinding[]> {
  // Colours are read as painted: a panel still fading in would show a blend that is not what people read.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ content: AXE_SOURCE });
  const result = clockPaused
    ? await runStepping(page)
    : await page.evaluate((options) => (window as unknown as AxeWindow).axe.run(document, options), AXE_OPTIONS);
  return (result as AxeResultShape).violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    summary: v.nodes[0]?.failureSummary?.replace(/\s+/g, ' ') ?? '',
  }));
}

type AxeWindow = Window & { axe: { run(context: Document, options: object): Promise<unknown> }; axeResult?: unknown };

/**
 * axe waits on setTimeout(0) between rules. While the test holds the page's clock paused (to keep a
 * notice up), those timers fire only when the clock runs: it is moved on a millisecond at a time
 * (one step runs axe's whole chain of zero-delay timers) until axe has answered.
 */
async function runStepping(page: Page): Promise<unknown> {
  await page.evaluate((options) => {
    const w = window as unknown as AxeWindow;
    delete w.axeResult;
    void w.axe.run(document, options).then((r) => (w.axeResult = r));
  }, AXE_OPTIONS);
  for (;;) {
    const result = await page.evaluate(() => (window as unknown as AxeWindow).axeResult);
    if (result) return result;
    await page.clock.runFor(1);
  }
}

/** A readable list for the failure message: rule, what it checks, where (first few nodes), and why. */
export function describeFindings(findings: AxeFinding[]): string {
  return findings
    .map((f) => `${f.rule} (${f.impact}, ${f.targets.length} nodes): ${f.help}\n    ${f.targets.slice(0, 5).join('\n    ')}\n    ${f.summary.slice(0, 300)}`)
    .join('\n');
}
