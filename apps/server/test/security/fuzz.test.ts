import { defineFuzzSuite } from './support/fuzz-suite.ts';

/**
 * A sample of the fuzz suite for every `npm test`, run once (in the Vitest step; the second Node
 * line's API run and the resilience step leave it out): 200 generated requests per write endpoint and
 * per id or query parameter, with a new seed each run. `npm run test:resilience` runs the same
 * properties at volume.
 */
defineFuzzSuite({ runs: 200, oversizeRuns: 20 });
