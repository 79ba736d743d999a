import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The crash file takes most of the step (about 140 s of about 220 s on a quiet 2-core machine) and
 * spends much of it waiting for restarted servers; the other files (outage, shutdown, npm start, the
 * local cluster) each start their own database and ports, so they run one after another in the
 * second worker beside it. Vitest orders files by size when it has no timings (a fresh clone), which
 * would start the small crash file last; it goes first.
 */
class CrashFileFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isCrash = (spec: TestSpecification) => spec.moduleId.endsWith('/crash.test.ts');
    return [...sorted.filter(isCrash), ...sorted.filter((spec) => !isCrash(spec))];
  }
}

/** The heavy reliability suite (crash, outage, fuzz at volume): `npm run test:resilience`. */
export default defineConfig({
  test: {
    include: ['apps/server/test/resilience/**/*.test.ts'],
    globalSetup: ['apps/server/test/helpers/global-setup.ts'],
    setupFiles: ['apps/server/test/helpers/fail-on-console-error.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: CrashFileFirst },
  },
});
