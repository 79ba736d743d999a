// Reads the JSON reports of Vitest and Playwright and prints one closing line: `N passed, N failed`.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;

for (const vitest of ['.tmp/vitest.json', '.tmp/vitest-second-node.json', '.tmp/vitest-resilience.json']) {
  if (!existsSync(vitest)) continue;
  const r = JSON.parse(readFileSync(vitest, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}

const playwright = '.tmp/playwright.json';
if (existsSync(playwright)) {
  const r = JSON.parse(readFileSync(playwright, 'utf8'));
  passed += r.stats?.expected ?? 0;
  failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0);
  skipped += r.stats?.skipped ?? 0;
  if ((r.errors ?? []).length > 0) failed += r.errors.length;
}

for (const arg of process.argv.slice(2)) {
  // Steps that are not test runners (typecheck, lint, build) count as one failed check each.
  if (arg.startsWith('--failed-step=')) failed += 1;
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
