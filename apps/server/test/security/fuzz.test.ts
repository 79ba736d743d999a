import { defineFuzzSuite } from './support/fuzz-suite.ts';

/**
 * A sample of the fuzz suite for every `npm test`: 200 generated requests per write endpoint and per
 * id or query parameter. `npm run test:resilience` runs the same properties at volume.
 */
defineFuzzSuite({ runs: 200, oversizeRuns: 20 });
