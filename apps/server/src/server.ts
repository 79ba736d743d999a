import { ConfigError, loadConfig } from './config.ts';
import { startServer, StartupError, type RunningServer } from './start.ts';
import { createPrettyLogStream } from './lib/pretty-log-stream.ts';
import { drainThenStop, trackActivity } from './lib/shutdown-drain.ts';

/** The oldest Node line still supported upstream (docs/decisions/010-production-runtime.md). */
const OLDEST_SUPPORTED_NODE = 22;
function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  let server: RunningServer;
  try {
    const readable = !config.isProduction && process.stdout.isTTY;
    server = await startServer(config, { logger: { level: config.logLevel, ...(readable ? { stream: createPrettyLogStream(process.stdout) } : {}) } });
  } catch (error) {
    if (error instanceof StartupError) fail(`BulkCart could not start: ${error.message}`);
    fail(`BulkCart could not start: ${(error as Error).message}`);
  }
  const role = server.role === 'all' ? '' : `, role: ${server.role}`;
  process.stdout.write(`BulkCart is listening on ${server.url} (database: ${server.database.kind}${role})\n`);
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  if (nodeMajor < OLDEST_SUPPORTED_NODE) {
    server.app.log.warn(`Node ${process.versions.node} is past its end of life: install Node 24 LTS (or 22). See README.md.`);
  }
  const activity = trackActivity(server.app.server);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // A hung request must not keep the process alive past the deadline.
    setTimeout(() => {
      server.app.log.error(
        { inFlight: activity.inFlight(), deadlineMs: config.shutdownDeadlineMs },
        'shutdown deadline passed: exiting with requests still in flight',
      );
      process.exit(1);
    }, config.shutdownDeadlineMs).unref();
    drainThenStop(activity, config.shutdownDeadlineMs, () => server.stop()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
