import { fileURLToPath } from 'node:url';

/**
 * apps/server, found from this module's own file. The source runs as src/locations.ts and the
 * compiled bundle as dist/server.js: both one folder below apps/server, so one relative step serves
 * both. Files outside the bundle (migrations, the built web app) are found from here, never from the
 * depth of whichever module asks.
 */
const SERVER_ROOT = new URL('..', import.meta.url);

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('migrations', SERVER_ROOT));
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../web/dist', SERVER_ROOT));
