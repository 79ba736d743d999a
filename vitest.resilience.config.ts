import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** The heavy reliability suite (crash, outage, fuzz at volume): `npm run test:resilience`. */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['apps/server/test/resilience/**/*.test.ts'],
      exclude: ['**/node_modules/**'],
      testTimeout: 300_000,
      hookTimeout: 120_000,
      maxWorkers: 1,
    },
  }),
);
