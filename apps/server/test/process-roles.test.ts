import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/start.ts';
import { createPostgresDatabase, TEST_ORIGIN } from './helpers/test-app.ts';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function start(env: Record<string, string>): Promise<RunningServer> {
  const config = loadConfig({ NODE_ENV: 'test', BASE_URL: TEST_ORIGIN, PORT: '0', RATE_LIMIT: 'false', PASSWORD_HASH: 'test-sha256', ...env });
  const server = await startServer(config, { logger: false });
  cleanups.push(() => server.stop());
  return server;
}

describe('process roles', () => {
  it('a worker answers /api/health and nothing else; a web process serves the product', async () => {
    const database = await createPostgresDatabase({ migrated: true });
    cleanups.push(database.drop);
    const worker = await start({ DATABASE_URL: database.url, PROCESS_ROLE: 'worker' });
    const web = await start({ DATABASE_URL: database.url, PROCESS_ROLE: 'web' });
    expect(worker.role).toBe('worker');
    expect((await worker.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ status: 'ok', db: 'ok' });
    for (const url of ['/api/allproduct', '/api/me', '/', '/api/docs']) {
      const answer = await worker.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json().error.code).toBe('NOT_FOUND');
    }
    expect((await web.app.inject({ method: 'GET', url: '/api/allproduct' })).statusCode).toBe(200);
    expect((await web.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('refuses web and worker roles on the embedded database, naming the variable', () => {
    expect(() => loadConfig({ PROCESS_ROLE: 'worker' })).toThrow(/PROCESS_ROLE: worker needs DATABASE_URL/);
    expect(() => loadConfig({ PROCESS_ROLE: 'cron' })).toThrow(/PROCESS_ROLE: must be all, web or worker/);
    expect(loadConfig({}).processRole).toBe('all');
  });
});
