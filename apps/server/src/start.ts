import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, buildWorkerApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database, type DatabaseOptions } from './db/client.ts';
import { runMigrations, STARTUP_LOCK_ID } from './db/migrate.ts';
import { seedDemoData } from './db/seed/index.ts';
import { runsBackgroundWork, startBackgroundWork } from './background.ts';

export interface RunningServer {
  app: FastifyInstance;
  role: Config['processRole'];
  database: Database;
  url: string;
  stop(): Promise<void>;
}

/** A start-up failure with a one-line reason for the operator (no stack trace). */
export class StartupError extends Error {}

/** Opens a database, or stops start-up with a one-line reason naming it (`what`) and where it is. */
async function openOrExplain(options: DatabaseOptions, what: string): Promise<Database> {
  try {
    return await openDatabase(options);
  } catch (error) {
    const where = options.kind === 'postgres' ? redact(options.url) : (options.dataDir ?? 'memory');
    throw new StartupError(`Cannot open ${what} at ${where}: ${(error as Error).message || (error as { code?: string }).code}`);
  }
}

export async function prepareDatabase(config: Config): Promise<Database> {
  const database = await openOrExplain(config.database, 'the database');
  const migrationUrl = config.database.kind === 'postgres' ? config.database.migrationUrl : null;
  if (!migrationUrl) {
    await database.withExclusiveLock(STARTUP_LOCK_ID, () => runMigrations(database));
    return database;
  }
  // Migrations take a direct connection (DATABASE_MIGRATION_URL), past the pooler (docs/deploy.md).
  const direct = await openOrExplain({ kind: 'postgres', url: migrationUrl, poolSize: 2 }, 'the migrations database').catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  try {
    await direct.withExclusiveLock(STARTUP_LOCK_ID, () => runMigrations(direct));
  } finally {
    await direct.close();
  }
  return database;
}

/** The one-line reason a listen failed, for the operator. */
function cannotListen(config: Config, error: unknown): StartupError {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return new StartupError(`Port ${config.port} on ${config.host} is already in use. Set PORT to another port.`);
  if (code === 'EACCES') return new StartupError(`Not allowed to listen on port ${config.port}. Set PORT to a port above 1024.`);
  return new StartupError(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
}

/**
 * Binds the port and lets it go again before the database is opened: a port already taken (or a
 * host this machine does not have) is reported at once, not after a fresh embedded database was
 * created, migrated and seeded (seconds). The real listen below still reports a port taken between.
 */
async function checkPortFree(config: Config): Promise<void> {
  if (config.port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port: config.port, host: config.host, exclusive: true }, resolve);
    });
  } catch (error) {
    throw cannotListen(config, error);
  }
  await new Promise((resolve) => probe.close(resolve));
}

/** Opens the database, migrates, seeds (demo mode), and listens. Used by server.ts and tests. */
export async function startServer(config: Config, options: { logger?: boolean | object } = {}): Promise<RunningServer> {
  await checkPortFree(config);
  const database = await prepareDatabase(config);
  // A worker serves only /api/health; web and all serve the whole product (docs/deploy.md).
  const build = config.processRole === 'worker' ? buildWorkerApp : buildApp;
  const { app, ctx } = await build({ config, database, logger: options.logger });
  if (config.seedDemo) await database.withExclusiveLock(STARTUP_LOCK_ID, () => seedDemoData(ctx));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    await database.close();
    throw cannotListen(config, error);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Every periodic job runs from one scheduler, in `all` and `worker` processes only.
  const background = runsBackgroundWork(config.processRole) ? startBackgroundWork(ctx, app.log) : null;
  const shownHost = config.host === '0.0.0.0' || config.host === '127.0.0.1' || config.host === '::' ? 'localhost' : config.host;
  return {
    app,
    role: config.processRole,
    database,
    url: `http://${shownHost}:${port}`,
    async stop() {
      await background?.stop();
      await app.close();
      await database.close();
    },
  };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
