import { ConfigError, loadConfig } from './config.ts';
import { startServer, StartupError, type RunningServer } from './start.ts';
import { createPrettyLogStream } from './lib/pretty-log-stream.ts';

/** The oldest Node line still supported upstream (docs/decisions/010-production-runtime.md). */
const OLDEST_SUPPORTED_NODE = 22;
/** A stopping server closes once no request is in flight and none has come for this long… */
const SHUTDOWN_QUIET_MS = 300;
/** …or after this long at most, if clients keep coming (in-flight requests still finish after it). */
const SHUTDOWN_DRAIN_MAX_MS = 3_000;

/** Counts requests in flight and notes when the last connection or request came or went. */
function trackActivity(server: RunningServer): { inFlight(): number; quietFor(): number } {
  let inFlight = 0;
  let lastActivity = Date.now();
  const touch = () => {
    lastActivity = Date.now();
  };
  server.app.server.on('connection', touch);
  server.app.server.on('request', (_request, response) => {
    inFlight += 1;
    touch();
    response.once('close', () => {
      inFlight -= 1;
      touch();
    });
  });
  return { inFlight: () => inFlight, quietFor: () => Date.now() - lastActivity };
}

/**
 * Closing the listener at once would cut off requests already sent but not yet read: Node resets the
 * connections still in the accept queue and those it has not begun to read (with PGlite busy, that
 * can be most of them). So a stopping server keeps reading and answering until it has been quiet for
 * a moment, then closes, and the close waits for whatever is still in flight.
 */
async function drainThenStop(server: RunningServer, activity: ReturnType<typeof trackActivity>): Promise<void> {
  const since = Date.now();
  while ((activity.inFlight() > 0 || activity.quietFor() < SHUTDOWN_QUIET_MS) && Date.now() - since < SHUTDOWN_DRAIN_MAX_MS) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await server.stop();
}

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
  const activity = trackActivity(server);

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
    drainThenStop(server, activity).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
