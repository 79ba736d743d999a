import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../../../scripts/server-node-flags.ts';

/**
 * The places that start the compiled server and cannot import scripts/server-node-flags.ts spell its
 * flags out: `npm start`, the README's service command and the local cluster. They say the same.
 */

const root = new URL('../../../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
const flags = SERVER_NODE_FLAGS.join(' ');

describe('the server runs with the same flags wherever it starts', () => {
  it('npm start', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toContain(`exec node ${flags} apps/server/dist/server.js`);
  });

  it("the README's service command (the line may wrap)", () => {
    expect(read('README.md').replace(/\s+/g, ' ')).toContain(`\`NODE_ENV=production node ${flags} apps/server/dist/server.js\``);
  });

  it('scripts/local-cluster.sh', () => {
    expect(read('scripts/local-cluster.sh')).toContain(`exec node ${flags} "$ROOT/apps/server/dist/server.js"`);
  });
});
