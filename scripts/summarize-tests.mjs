// Reads the JSON reports of Vitest and Playwright and prints the step times (with the machine's load),
// the slowest 10 tests, and one closing line: `N passed, N failed`.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
/** Failures each test-runner step's own report counted, by step name. */
const failedInStep = {};
/** Every test that ran: where, its name, and how long it took in ms. */
const durations = [];

const VITEST_REPORTS = { '.tmp/vitest.json': 'vitest', '.tmp/vitest-second-node.json': 'api-second-node', '.tmp/vitest-resilience.json': 'resilience' };
for (const [vitest, step] of Object.entries(VITEST_REPORTS)) {
  if (!existsSync(vitest)) continue;
  const r = JSON.parse(readFileSync(vitest, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failedInStep[step] = (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  failed += failedInStep[step];
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  for (const file of r.testResults ?? []) {
    const where = file.name.replace(`${process.cwd()}/`, '');
    for (const test of file.assertionResults ?? []) durations.push({ step, name: `${where} › ${test.fullName}`, ms: test.duration ?? 0 });
  }
}

const playwright = '.tmp/playwright.json';
if (existsSync(playwright)) {
  const r = JSON.parse(readFileSync(playwright, 'utf8'));
  passed += r.stats?.expected ?? 0;
  failedInStep.e2e = (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0) + (r.errors ?? []).length;
  failed += failedInStep.e2e;
  skipped += r.stats?.skipped ?? 0;
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const ms = (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0);
        durations.push({ step: 'e2e', name: `${[...titles, spec.title].filter(Boolean).join(' › ')} [${test.projectName}]`, ms });
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of r.suites ?? []) visit(suite, [`e2e/${suite.title}`]);
}

const stepTimes = '.tmp/step-times.tsv';
if (existsSync(stepTimes)) {
  const rows = readFileSync(stepTimes, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
  // Steps that ran side by side share a fifth column (the group's first step): their wall time is the
  // longest of them, counted once.
  const wallByGroup = new Map();
  for (const [name, seconds, , , group = name] of rows) wallByGroup.set(group, Math.max(wallByGroup.get(group) ?? 0, Number(seconds)));
  const total = [...wallByGroup.values()].reduce((sum, seconds) => sum + seconds, 0);
  console.log('\nStep times (load average before → after):');
  for (const [name, seconds, before, after, group] of rows) {
    console.log(
      `  ${name.padEnd(16)} ${String(seconds).padStart(5)} s   load ${before} → ${after}${group ? `   (beside ${[...new Set(rows.filter((r) => r[4] === group && r[0] !== name).map((r) => r[0]))].join(', ')})` : ''}`,
    );
  }
  console.log(`  ${'total'.padEnd(16)} ${String(total).padStart(5)} s`);
}

if (durations.length > 0) {
  console.log('\nSlowest 10 tests:');
  for (const t of durations.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
    console.log(`  ${(t.ms / 1000).toFixed(1).padStart(6)} s  [${t.step}] ${t.name.length > 160 ? `${t.name.slice(0, 159)}…` : t.name}`);
  }
  console.log('');
}

for (const arg of process.argv.slice(2)) {
  // A failed step counts as one failed check unless its report already counted its failures: steps
  // that are not test runners (typecheck, lint, build), and a runner that died before writing a report.
  const step = arg.startsWith('--failed-step=') ? arg.slice('--failed-step='.length) : undefined;
  if (step !== undefined && !(failedInStep[step] > 0)) failed += 1;
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
