import { defineFuzzSuite } from '../security/support/fuzz-suite.ts';

/**
 * The fuzz suite at volume (docs/reliability.md): 1,000 generated requests per write endpoint and per id
 * or query parameter on each database, so 2,000 per endpoint and parameter in every run. 100 bodies over
 * 100 KB per database. `npm run test:resilience` only: `npm test` runs the 200-per-database sample
 * (test/security/fuzz.test.ts) once and leaves this file out of its resilience step.
 */
defineFuzzSuite({ runs: 1_000, oversizeRuns: 100 });
