import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The compiled server (`npm run build:server`), which every test that spawns a server runs with
 * plain `node`, as production does: no TypeScript loader to start each time (the crash suite starts
 * 60 servers). global-setup.ts rebuilds it first when it is older than its sources.
 */
export const COMPILED_SERVER = fileURLToPath(new URL('../../dist/server.js', import.meta.url));

const root = fileURLToPath(new URL('../../../../', import.meta.url));

export function buildServerIfStale(): void {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs', 'server'], { cwd: root, stdio: 'inherit' });
}
