import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, REQUEST_TIMEOUTS } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { TEST_ORIGIN } from '../helpers/test-app.ts';
import { listenOnLoopback } from './support/raw-http.ts';

/**
 * docs/decisions/007-request-paths.md: slow clients cannot hold connections, the slowest real client still gets through, and
 * what Node's HTTP parser refuses is answered in our error shape. The timeouts are the production ones
 * scaled down 30 times, so the proportions (a 100 KB body arriving at half the limit) stay the same.
 */

const SCALE = 30;
const TIMEOUTS = {
  requestMs: REQUEST_TIMEOUTS.requestMs / SCALE,
  headersMs: REQUEST_TIMEOUTS.headersMs / SCALE,
  idleMs: REQUEST_TIMEOUTS.idleMs / SCALE,
  checkEveryMs: 100,
};

interface Exchange {
  text: string;
  closed: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a socket, lets `write` drive it, and collects everything the server sends until it closes. */
async function exchange(port: number, write: (socket: net.Socket, state: Exchange) => Promise<void>): Promise<Exchange> {
  const socket = net.connect(port, '127.0.0.1');
  const state: Exchange = { text: '', closed: false };
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk: Buffer) => (state.text += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  socket.once('close', () => (state.closed = true));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  await write(socket, state);
  await Promise.race([closed, sleep(TIMEOUTS.requestMs * 3)]);
  socket.destroy();
  return state;
}

function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

function bodyOf(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

const ERROR_SHAPE = { error: { code: expect.any(String), title: expect.any(String), message: expect.any(String) } };

describe('slow and broken connections', () => {
  let app: FastifyInstance;
  let database: Database;
  let port: number;

  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', BASE_URL: TEST_ORIGIN, DATA_DIR: ':memory:', RATE_LIMIT: 'false' });
    database = await openDatabase(config.database);
    await runMigrations(database);
    ({ app } = await buildApp({ config, database, logger: false, timeouts: TIMEOUTS }));
    port = await listenOnLoopback(app);
  });

  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('cuts off a body dripped a byte at a time, with a 408 in our error shape', async () => {
    const bodyBytes = 100;
    const result = await exchange(port, async (socket, state) => {
      socket.write(
        `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: ${bodyBytes}\r\n\r\n`,
      );
      // At this pace the body would need 100 × a tenth of the limit: ten times longer than allowed.
      for (let sent = 0; sent < bodyBytes && !state.closed; sent++) {
        socket.write(' ');
        await sleep(TIMEOUTS.requestMs / 10);
      }
    });
    expect(result.closed).toBe(true);
    expect(statusOf(result.text), result.text).toBe(408);
    expect(bodyOf(result.text)).toEqual(ERROR_SHAPE);
  });

  it('cuts off headers sent too slowly', async () => {
    const result = await exchange(port, async (socket, state) => {
      socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      for (let i = 0; i < 100 && !state.closed; i++) {
        socket.write(`X-Drip-${i}: a\r\n`);
        await sleep(TIMEOUTS.headersMs / 10);
      }
    });
    expect(result.closed).toBe(true);
    expect(statusOf(result.text), result.text).toBe(408);
  });

  it('reads a 100 KB body from a phone on a bad link (the whole body at half the limit)', async () => {
    const body = JSON.stringify({ productId: 'x', quantity: 1, padding: 'p'.repeat(100_000) });
    const chunks = 20;
    const chunkSize = Math.ceil(body.length / chunks);
    const result = await exchange(port, async (socket) => {
      socket.write(
        `POST /api/order HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
      );
      for (let i = 0; i < chunks; i++) {
        socket.write(body.slice(i * chunkSize, (i + 1) * chunkSize));
        await sleep(TIMEOUTS.requestMs / 2 / chunks);
      }
    });
    // Read in full and answered by the route: nobody is signed in.
    expect(statusOf(result.text), result.text.slice(0, 300)).toBe(401);
  });

  it('answers headers over Node’s limit with 431 in our error shape', async () => {
    const result = await exchange(port, async (socket) => {
      socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    expect(statusOf(result.text), result.text.slice(0, 200)).toBe(431);
    expect(bodyOf(result.text)).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', title: 'Request too large', message: 'The request headers are too large.' } });
  });

  it('answers a request Node cannot parse with 400 in our error shape', async () => {
    for (const raw of [
      'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nBroken Header Line\r\n\r\n',
      'NOT HTTP AT ALL\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nContent-Length: x\r\n\r\n',
    ]) {
      const result = await exchange(port, async (socket) => {
        socket.write(raw);
      });
      expect(statusOf(result.text), JSON.stringify(raw)).toBe(400);
      expect(bodyOf(result.text)).toEqual({ error: { code: 'BAD_REQUEST', title: 'Bad request', message: 'The request is not valid HTTP.' } });
    }
  });

  it('keeps the production limits in the proportions the tests rely on', () => {
    // A 100 KB body within the request limit needs under 14 kbit/s; headers get a quarter of it.
    expect((100 * 1024 * 8) / (REQUEST_TIMEOUTS.requestMs / 1000)).toBeLessThan(14_000);
    expect(REQUEST_TIMEOUTS.headersMs).toBeLessThan(REQUEST_TIMEOUTS.requestMs);
    expect(REQUEST_TIMEOUTS.idleMs).toBeGreaterThan(72_000);
  });
});
