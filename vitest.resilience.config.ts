import { defineConfig } from 'vitest/config';

/** The heavy reliability suite (crash, outage, fuzz at volume): `npm run test:resilience`. */
export default defineConfig({
  test: {
    include: ['apps/server/test/resilience/**/*.test.ts'],
    globalSetup: ['apps/server/test/helpers/global-setup.ts'],
    setupFiles: ['apps/server/test/helpers/fail-on-console-error.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
