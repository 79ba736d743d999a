import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium against the real built server on a fresh embedded database,
 * with a local OpenID provider standing in for Google (started by global-setup.ts).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Bounds on waiting for a state, not speed checks: every request of both workers goes through one
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
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--disable-dev-shm-usage'],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } }, testIgnore: '**/*.phone.spec.ts' },
    { name: 'phone', use: { ...devices['Pixel 7'] }, testMatch: '**/*.phone.spec.ts' },
  ],
});
