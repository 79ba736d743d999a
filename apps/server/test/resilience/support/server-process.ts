import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { COMPILED_SERVER_ARGS } from '../../helpers/compiled-server.ts';

const root = fileURLToPath(new URL('../../../../../', import.meta.url));

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The real server as an operator runs it: `node apps/server/dist/server.js` (helpers/compiled-server.ts). */
export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  exited: Promise<ServerExit>;
  /** Everything it printed, for failure messages. */
  output(): string;
  /** Log lines at level error (50) or fatal (60): a healthy run prints none. */
  errorLines(): string[];
  /** Error lines of our own catch-all (an answer of 500): none, even while the database is away. */
  unhandledErrors(): string[];
  kill(signal: NodeJS.Signals): Promise<ServerExit>;
}

export interface ServerOptions {
  port: number;
  /** `{ DATA_DIR }` for PGlite or `{ DATABASE_URL }` for PostgreSQL, plus any other setting. */
  env: Record<string, string>;
  startTimeoutMs?: number;
}

/**
 * Spawns the server and resolves once it prints that it is listening. The environment is built from
 * scratch (PATH only), so nothing from the test runner leaks into the server's configuration.
 */
export async function startServer({ port, env, startTimeoutMs = 60_000 }: ServerOptions): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...COMPILED_SERVER_ARGS], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT: 'false',
      SEED_DEMO: 'false',
      PASSWORD_HASH: 'test-sha256',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<ServerExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
    const onData = () => {
      if (!/is listening on/.test(output)) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve();
    };
    child.stdout.on('data', onData);
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`server exited during start-up (${JSON.stringify(exit)}):\n${output}`));
    });
  });

  const errorLines = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .filter((line) => {
        try {
          return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
        } catch {
          return false;
        }
      });
  return {
    url,
    pid: child.pid ?? -1,
    child,
    exited,
    output: () => output,
    errorLines,
    unhandledErrors: () => errorLines().filter((line) => /"msg":"(unhandled error|router error)"/.test(line)),
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
