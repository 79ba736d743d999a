import { ConfigError, loadConfig } from './config.ts';
import { startServer, StartupError, type RunningServer } from './start.ts';

const SHUTDOWN_DEADLINE_MS = 10_000;

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
    server = await startServer(config);
  } catch (error) {
    if (error instanceof StartupError) fail(`BulkCart could not start: ${error.message}`);
    fail(`BulkCart could not start: ${(error as Error).message}`);
  }
  process.stdout.write(`BulkCart is listening on ${server.url} (database: ${server.database.kind})\n`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // A hung request must not keep the process alive past the deadline.
    setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref();
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
