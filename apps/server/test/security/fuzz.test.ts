import { afterAll, vi } from 'vitest';
import { defineFuzzSuite } from './support/fuzz-suite.ts';

/**
 * A sample of the fuzz suite for every `npm test`, run once (in the Vitest step; the second Node
 * line's API run and the resilience step leave it out): 200 generated requests per write endpoint and
 * per id or query parameter, with a new seed each run. `npm run test:resilience` runs the same
 * properties at volume.
 */
// 200 requests a property take seconds on a quiet machine and over 30 s on a loaded one (seen at load
// 20): how long a property takes is not what this suite checks, so it gets room.
vi.setConfig({ testTimeout: 120_000 });
afterAll(() => {
  vi.resetConfig();
});

defineFuzzSuite({ runs: 200, oversizeRuns: 20 });
