import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase, createTestEnv, describeEachDatabase, TEST_ORIGIN, type TestEnv } from '../../../test/helpers/test-app.ts';
import { signUpUser } from '../../../test/helpers/accounts.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { runMigrations } from '../../db/migrate.ts';
import { queryRows } from '../../db/rows.ts';
import { FAILED_ATTEMPTS_PER_MINUTE } from '../../plugins/rate-limits/sign-in-limits.ts';
import { SlidingWindowCounter } from '../../plugins/rate-limits/sliding-window-counter.ts';
import { countAttempts, sweepExpiredCounters } from '../../plugins/rate-limits/database-counters.ts';

let ipCounter = 0;
/** A fresh client address per call, so a test decides exactly which attempts share an IP. */
function freshIp(): string {
  ipCounter += 1;
  return `10.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}.7`;
}

type Send = (options: InjectOptions) => Promise<LightMyRequestResponse>;

function signIn(env: TestEnv | { request: Send }, email: string, password: string, ip = freshIp()) {
  return env.request({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password }, remoteAddress: ip });
}

/**
 * A second server on the same database, as a second process would be: its own Fastify instance (and
 * its own memory), and on PostgreSQL its own connection pool. PGlite has one connection, so the two
 * share it.
 */
async function startSecondInstance(env: TestEnv): Promise<{ request: Send; close(): Promise<void> }> {
  const database: Database = env.kind === 'postgres' ? await openDatabase(env.config.database) : env.database;
  const { app } = await buildApp({ config: env.config, database, logger: false });
  await app.ready();
  return {
    request: (options) => app.inject({ ...options, headers: { origin: TEST_ORIGIN, ...(options.headers ?? {}) } } as InjectOptions),
    async close() {
      await app.close();
      if (database !== env.database) await database.close();
    },
  };
}

describeEachDatabase(
  'sign-in and sign-up rate limits',
  (env) => {
    it('refuses the 6th failed sign-in for one email within a minute, from any IP, with 429 and Retry-After', async () => {
      const user = await signUpUser(env());
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
      }
      // Even the right password waits: the limit is on the account, whoever is guessing.
      const refused = await signIn(env(), user.email.toUpperCase(), user.password);
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          title: 'Too many requests',
          message: `Too many failed sign-in attempts. Try again in ${retryAfter} seconds.`,
        },
      });
      expect(refused.headers['set-cookie']).toBeUndefined();
    });

    it('refuses the 6th failed sign-in from one IP within a minute, whatever the email', async () => {
      const ip = freshIp();
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        expect((await signIn(env(), `guess-${randomUUID()}@example.com`, 'Wrong0ne', ip)).statusCode).toBe(401);
      }
      const user = await signUpUser(env());
      expect((await signIn(env(), user.email, user.password, ip)).statusCode).toBe(429);
      // Someone else on another network is not affected.
      expect((await signIn(env(), user.email, user.password)).statusCode).toBe(200);
    });

    it('counts only failures: a successful sign-in clears the account’s failed tries', async () => {
      const user = await signUpUser(env());
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE - 1; i++) {
        expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
      }
      expect((await signIn(env(), user.email, user.password)).statusCode).toBe(200);
      // Without the reset the second of these would be the 6th failure and get 429.
      expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
      expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
      expect((await signIn(env(), user.email, user.password)).statusCode).toBe(200);
    });

    it('refuses the 6th failed sign-up for one email (probing which emails exist)', async () => {
      const user = await signUpUser(env());
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        const response = await env().request({
          method: 'POST',
          url: '/api/auth/sign-up/email',
          payload: { name: 'Probe Person', email: user.email, password: 'Passw0rd' },
          remoteAddress: freshIp(),
        });
        expect(response.statusCode).toBe(422);
      }
      const refused = await env().request({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { name: 'Probe Person', email: user.email, password: 'Passw0rd' },
        remoteAddress: freshIp(),
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many failed sign-up attempts/) } });
    });

    it('does not slow down a user who signs in correctly again and again', async () => {
      const user = await signUpUser(env());
      const ip = freshIp();
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE + 3; i++) {
        expect((await signIn(env(), user.email, user.password, ip)).statusCode).toBe(200);
      }
    });

    it('does not count refused tries: an IP turned away by a locked account can still sign in elsewhere', async () => {
      const locked = await signUpUser(env());
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        expect((await signIn(env(), locked.email, 'Wrong0ne')).statusCode).toBe(401);
      }
      const ip = freshIp();
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE + 1; i++) {
        expect((await signIn(env(), locked.email, 'Wrong0ne', ip)).statusCode).toBe(429);
      }
      const other = await signUpUser(env());
      expect((await signIn(env(), other.email, other.password, ip)).statusCode).toBe(200);
    });

    it('lets through only the limit from a burst of simultaneous wrong guesses for one account', async () => {
      const user = await signUpUser(env());
      const burst = await Promise.all(Array.from({ length: 2 * FAILED_ATTEMPTS_PER_MINUTE }, () => signIn(env(), user.email, 'Wrong0ne')));
      const statuses = burst.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([...Array<number>(FAILED_ATTEMPTS_PER_MINUTE).fill(401), ...Array<number>(FAILED_ATTEMPTS_PER_MINUTE).fill(429)]);
    });

    it('shares the failed-try count between two servers on one database', async () => {
      const user = await signUpUser(env());
      const second = await startSecondInstance(env());
      try {
        for (let i = 0; i < 3; i++) expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
        for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE - 3; i++) expect((await signIn(second, user.email, 'Wrong0ne')).statusCode).toBe(401);
        // Five failures in all, three on one server and two on the other: each server refuses the sixth.
        expect((await signIn(second, user.email, 'Wrong0ne')).statusCode).toBe(429);
        expect((await signIn(env(), user.email, user.password)).statusCode).toBe(429);

        // The IP count is shared the same way.
        const ip = freshIp();
        for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
          const server = i % 2 === 0 ? env() : second;
          expect((await signIn(server, `guess-${randomUUID()}@example.com`, 'Wrong0ne', ip)).statusCode).toBe(401);
        }
        const other = await signUpUser(env());
        expect((await signIn(env(), other.email, other.password, ip)).statusCode).toBe(429);
        expect((await signIn(second, other.email, other.password, ip)).statusCode).toBe(429);
      } finally {
        await second.close();
      }
    });

    it('clears an account’s failed tries on every server when it signs in on one', async () => {
      const user = await signUpUser(env());
      const second = await startSecondInstance(env());
      try {
        for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE - 1; i++) expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
        expect((await signIn(second, user.email, user.password)).statusCode).toBe(200);
        // Without the shared reset the first server would still hold four failures and refuse the second.
        expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
        expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
      } finally {
        await second.close();
      }
    });

    it('refuses an IP known to be over its limit at once, writing no counter for the new emails it tries', async () => {
      const ip = freshIp();
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        expect((await signIn(env(), `guess-${randomUUID()}@example.com`, 'Wrong0ne', ip)).statusCode).toBe(401);
      }
      expect((await signIn(env(), `guess-${randomUUID()}@example.com`, 'Wrong0ne', ip)).statusCode).toBe(429);
      const db = env().db();
      const at = (await queryRows<{ at: string }>(db, sql`SELECT now()::text AS at`))[0]?.at ?? '';
      // Counters of a window opened from now on: earlier ones may expire and be swept meanwhile.
      const newCounters = async () =>
        (
          await queryRows<{ n: number }>(
            db,
            sql`SELECT count(*)::int AS n FROM rate_limit_counters WHERE expires_at > ${at}::timestamptz + interval '1 minute'`,
          )
        )[0]?.n;
      const before = await newCounters();
      for (let i = 0; i < 50; i++) {
        const refused = await signIn(env(), `flood-${randomUUID()}@example.com`, 'Wrong0ne', ip);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many failed sign-in attempts/) } });
      }
      expect(await newCounters()).toBe(before);
    });

    it('stores an email’s counter under a keyed hash, not a plain SHA-256 anyone can recompute', async () => {
      const email = `keyed-${randomUUID()}@example.com`;
      expect((await signIn(env(), email, 'Wrong0ne')).statusCode).toBe(401);
      const keys = (await queryRows<{ key: string }>(env().db(), sql`SELECT key FROM rate_limit_counters WHERE key LIKE 'sign-in-failures:email:%'`)).map(
        (r) => r.key,
      );
      expect(keys).not.toContain(`sign-in-failures:email:${createHash('sha256').update(email).digest('base64url')}`);
      expect(keys).toContain(`sign-in-failures:email:${createHmac('sha256', env().config.authSecret).update(email).digest('base64url')}`);
    });

    it('deletes expired counters in bounded sweeps and keeps live ones', async () => {
      const tag = randomUUID();
      const db = env().db();
      await db.execute(sql`INSERT INTO rate_limit_counters (key, count, expires_at) VALUES
        (${`${tag}:old-1`}, 5, now() - interval '2 hours'), (${`${tag}:old-2`}, 5, now() - interval '1 hour'),
        (${`${tag}:old-3`}, 1, now() - interval '1 second'), (${`${tag}:live`}, 2, now() + interval '1 minute')`);
      const left = async () =>
        (await queryRows<{ key: string }>(db, sql`SELECT key FROM rate_limit_counters WHERE key LIKE ${`${tag}:%`} ORDER BY key`)).map((r) =>
          r.key.slice(tag.length + 1),
        );
      // Other tests' counters may be expired too, so the sweep is bounded but not necessarily ours first.
      expect(await sweepExpiredCounters(db, 2)).toBe(2);
      while ((await sweepExpiredCounters(db, 2)) > 0) {
        // Sweep until nothing expired is left.
      }
      expect(await left()).toEqual(['live']);
    });
  },
  { RATE_LIMIT: 'true' },
);

/**
 * PGlite runs one statement at a time, so only PostgreSQL can show a sweep racing other sweeps and
 * attempts that restart the counters it is deleting: the case where `DELETE … WHERE key IN (SELECT …
 * LIMIT n FOR UPDATE SKIP LOCKED)` deleted more than n.
 */
describe('expired counters swept by several processes at once [postgres]', () => {
  it('deletes at most the batch in each sweep and each expired counter once, sparing the ones attempts restart', async () => {
    const env = await createTestEnv('postgres', { RATE_LIMIT: 'true' });
    const { database } = env.config;
    if (database.kind !== 'postgres') throw new Error('this race needs PostgreSQL');
    const sweepers = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ ...database, poolSize: 1 })));
    try {
      const expired = 300;
      const key = (i: number) => `race:${String(i).padStart(4, '0')}`;
      await env.db().execute(sql`INSERT INTO rate_limit_counters (key, count, expires_at)
        SELECT 'race:' || lpad(i::text, 4, '0'), 3, now() - (i || ' seconds')::interval FROM generate_series(0, ${expired - 1}) AS i`);
      const deletedPerSweep: number[] = [];
      const restarted = new Set<string>();
      // While the sweeps run, attempts restart every third counter's window, and other writes change
      // expired counters without restarting them (a taken-back attempt does that), so a sweep meets
      // rows changed under it, the case where PostgreSQL rechecks them.
      const attempts = (async () => {
        for (let i = 0; i < expired; i += 3) {
          await countAttempts(env.db(), [{ key: key(i), limit: 5, windowMs: 60_000 }]);
          restarted.add(key(i));
        }
      })();
      const touches = (async () => {
        for (let round = 0; round < 50; round++) {
          await env.db().execute(sql`UPDATE rate_limit_counters SET count = count + 1 WHERE key LIKE 'race:%' AND expires_at <= now()`);
        }
      })();
      let writersDone = false;
      const writers = Promise.all([attempts, touches]).then(() => {
        writersDone = true;
      });
      // A sweep finds nothing while the writers hold the rows (SKIP LOCKED): sweep on until they are done.
      await Promise.all(
        sweepers.map(async (sweeper) => {
          for (;;) {
            const deleted = await sweepExpiredCounters(sweeper.db, 2);
            deletedPerSweep.push(deleted);
            if (deleted === 0 && writersDone) break;
          }
        }),
      );
      await writers;
      const left = (await queryRows<{ key: string }>(env.db(), sql`SELECT key FROM rate_limit_counters WHERE key LIKE 'race:%'`)).map((r) => r.key);
      const deleted = deletedPerSweep.reduce((a, b) => a + b, 0);
      expect(Math.max(...deletedPerSweep)).toBeLessThanOrEqual(2);
      // What is left was restarted by an attempt (a live window); everything else was deleted, once.
      expect(left.filter((k) => !restarted.has(k))).toEqual([]);
      expect(deleted).toBeGreaterThanOrEqual(expired - left.length);
      expect(deleted).toBeLessThanOrEqual(expired);
      expect(restarted.size).toBeGreaterThan(0);
    } finally {
      for (const sweeper of sweepers) await sweeper.close();
      await env.close();
    }
  }, 120_000);
});

const PRODUCTION_ORIGIN = 'https://shop.example';
/** Production settings: the trustProxy choice once depended on NODE_ENV, so these tests run as production. */
const PRODUCTION = { NODE_ENV: 'production', BASE_URL: PRODUCTION_ORIGIN, BETTER_AUTH_SECRET: 'p'.repeat(40), RATE_LIMIT: 'true' };

function signInVia(env: TestEnv, forwardedFor: string, remoteAddress: string) {
  return env.request({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email: `guess-${randomUUID()}@example.com`, password: 'Wrong0ne' },
    headers: { origin: PRODUCTION_ORIGIN, 'x-forwarded-for': forwardedFor },
    remoteAddress,
  });
}

describeEachDatabase(
  'sign-in limits with TRUST_PROXY_HOPS=0 (the default)',
  (env) => {
    it('counts the connection’s address, whatever X-Forwarded-For a client writes', async () => {
      const ip = freshIp();
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        expect((await signInVia(env(), `203.0.113.${i + 1}`, ip)).statusCode).toBe(401);
      }
      expect((await signInVia(env(), '203.0.113.99', ip)).statusCode).toBe(429);
    });
  },
  PRODUCTION,
);

describeEachDatabase(
  'sign-in limits with TRUST_PROXY_HOPS=1',
  (env) => {
    it('counts the rightmost X-Forwarded-For entry (the one our proxy wrote), not what the client put before it', async () => {
      const client = freshIp();
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        // A different proxy address each time too: the client is who the limit is about.
        expect((await signInVia(env(), `203.0.113.${i + 1}, ${client}`, freshIp())).statusCode).toBe(401);
      }
      expect((await signInVia(env(), `203.0.113.99, ${client}`, freshIp())).statusCode).toBe(429);
      // Another client behind the same proxy is not refused.
      expect((await signInVia(env(), `203.0.113.99, ${freshIp()}`, freshIp())).statusCode).toBe(401);
    });
  },
  { ...PRODUCTION, TRUST_PROXY_HOPS: '1' },
);

/** A TCP relay in front of PostgreSQL: stopping it cuts every connection, as a database outage does. */
async function startRelay(targetPort: number): Promise<{ port: number; stop(): Promise<void>; resume(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    resume: () => listen(port),
  };
}

describe('sign-in and sign-up rate limits while PostgreSQL is away', () => {
  it('answer 503 with the JSON error body, keep the server up, and count again once it is back', async () => {
    const pgDb = await createPostgresDatabase();
    const target = new URL(pgDb.url);
    const relay = await startRelay(Number(target.port));
    const relayed = new URL(pgDb.url);
    relayed.port = String(relay.port);
    const config = loadConfig({ NODE_ENV: 'test', BASE_URL: TEST_ORIGIN, RATE_LIMIT: 'true', PASSWORD_HASH: 'test-sha256', DATABASE_URL: relayed.toString() });
    const database = await openDatabase(config.database);
    await runMigrations(database);
    const { app } = await buildApp({ config, database, logger: false });
    const send = (options: InjectOptions) => app.inject({ ...options, headers: { origin: TEST_ORIGIN }, remoteAddress: freshIp() });
    try {
      const email = `outage-${randomUUID()}@example.com`;
      const signUp = { method: 'POST' as const, url: '/api/auth/sign-up/email', payload: { name: 'Outage Person', email, password: 'Passw0rd' } };
      expect((await send(signUp)).statusCode).toBe(200);
      await relay.stop();
      for (const request of [
        { method: 'POST' as const, url: '/api/auth/sign-in/email', payload: { email, password: 'Passw0rd' } },
        {
          method: 'POST' as const,
          url: '/api/auth/sign-up/email',
          payload: { name: 'Second Person', email: `outage-${randomUUID()}@example.com`, password: 'Passw0rd' },
        },
      ]) {
        const answer = await send(request);
        expect(answer.statusCode, answer.body).toBe(503);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(answer.json()).toMatchObject({ error: { code: 'UNAVAILABLE', title: 'Service unavailable' } });
      }
      await relay.resume();
      expect((await send({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password: 'Passw0rd' } })).statusCode).toBe(200);
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        expect((await send({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password: 'Wrong0ne' } })).statusCode).toBe(401);
      }
      expect((await send({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password: 'Passw0rd' } })).statusCode).toBe(429);
    } finally {
      await app.close();
      await database.close();
      await relay.stop().catch(() => {});
      await pgDb.drop();
    }
  });
});

describe('SlidingWindowCounter', () => {
  it('lets the key in again once its oldest hit leaves the window, and says how long to wait', () => {
    const counter = new SlidingWindowCounter(3, 60_000);
    const t0 = 1_000_000;
    counter.record('k', t0);
    counter.record('k', t0 + 10_000);
    expect(counter.waitMs('k', t0 + 10_000)).toBe(0);
    counter.record('k', t0 + 20_000);
    expect(counter.waitMs('k', t0 + 30_000)).toBe(30_000);
    expect(counter.waitMs('k', t0 + 60_000)).toBe(0);
    expect(counter.waitMs('other', t0 + 30_000)).toBe(0);
  });

  it('forgets a key when cleared', () => {
    const counter = new SlidingWindowCounter(1, 60_000);
    counter.record('k', 5);
    expect(counter.waitMs('k', 5)).toBeGreaterThan(0);
    counter.clear('k');
    expect(counter.waitMs('k', 5)).toBe(0);
  });
});
