import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../../../scripts/server-node-flags.ts';

/**
 * The compiled server (`npm run build:server`), which every test that spawns a server runs with
 * plain `node`, as production does: no TypeScript loader to start each time (the crash suite starts
 * 60 servers). global-setup.ts rebuilds it first when it is older than its sources.
 */
export const COMPILED_SERVER = fileURLToPath(new URL('../../dist/server.js', import.meta.url));
/** Node's arguments for it: the flags production runs it with, then the file. */
export const COMPILED_SERVER_ARGS: readonly string[] = [...SERVER_NODE_FLAGS, COMPILED_SERVER];

const root = fileURLToPath(new URL('../../../../', import.meta.url));

export function buildServerIfStale(): void {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs', 'server'], { cwd: root, stdio: 'inherit' });
}
