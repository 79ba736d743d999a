import { createPgliteFolder } from '../lib/databases.ts';
import { launchServer } from '../lib/processes.ts';

export interface AppServer {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * The real server as its own process (bench/lib/processes.ts: a free loopback port, only
 * PATH/HOME/LANG/TMPDIR from the caller's environment), on a fresh embedded database seeded with the
 * demo catalog, serving the build under test. One start: the page timings do not depend on the
 * memory a first start on a new folder keeps, so the API benchmark's restart is not needed here.
 */
export async function startAppServer(webDist: string): Promise<AppServer> {
  const folder = createPgliteFolder();
  try {
    // Rate limits as in production (the API benchmark turns them off; one sign-up here never meets them).
    const server = await launchServer({ database: folder.target, seedDemo: true, name: 'server', env: { WEB_DIST: webDist, RATE_LIMIT: 'true' } });
    return {
      pid: server.pid,
      baseUrl: server.url,
      async stop() {
        await server.stop();
        folder.remove();
      },
    };
  } catch (error) {
    folder.remove();
    throw error;
  }
}
