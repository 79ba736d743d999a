import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Debian's Chromium headless shell (package chromium-headless-shell, what Playwright itself runs
 * headless): the same engine without the desktop browser's shell, about a quarter less CPU per test
 * (docs/testing.md). The full browser when the shell is not installed.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/**
 * End-to-end tests in Debian's Chromium against the real built server on a fresh embedded database,
 * with a local OpenID provider standing in for Google (started by global-setup.ts).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  // Three workers on a 2-core machine: with two, a fifth of both cores sat idle (tests waiting on
  // animations, timers and the one server); with three the whole step took 202 s instead of 260, and
  // a fourth gained nothing more (202 s, docs/testing.md).
  workers: 3,
  retries: 0,
  // Bounds on waiting for a state, not speed checks: every request of every worker goes through one
  // embedded database, so on a busy 2-core machine a page can wait seconds behind another test's
  // write. A passing test never waits them out.
  timeout: 45_000,
  expect: { timeout: 15_000 },
  outputDir: process.env.E2E_OUTPUT_DIR ?? '../test-results',
  reporter: [['list'], ['json', { outputFile: '../.tmp/playwright.json' }]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // A trace records a screencast of every test: off, it saves about a fifth of the step's time. The
    // error context (the page's accessibility snapshot) and a screenshot are kept for every failure;
    // `npx playwright test --trace retain-on-failure` records traces when they are wanted.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } }, testIgnore: '**/*.phone.spec.ts' },
    { name: 'phone', use: { ...devices['Pixel 7'] }, testMatch: '**/*.phone.spec.ts' },
  ],
});
