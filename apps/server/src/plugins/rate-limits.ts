import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import { AppError } from '../lib/app-error.ts';
import { getSessionUser } from '../modules/accounts/session.ts';

const SIGN_IN_PATH = '/api/auth/sign-in/email';
const SIGN_UP_PATH = '/api/auth/sign-up/email';
const ORDER_PATH = '/api/order';
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Failed tries allowed per IP and per email within a minute; the next one is refused (429). */
export const FAILED_ATTEMPTS_PER_MINUTE = 5;
/** Accounts one IP may create per hour: far above a real office, far below a sign-up bot. */
export const SIGN_UPS_PER_IP_PER_HOUR = 300;
/** Order requests one buyer may send per minute: a busy purchaser clicks far fewer, a script far more. */
export const ORDERS_PER_USER_PER_MINUTE = 20;
/** Order requests one IP may send per minute, for a whole office behind one address. */
export const ORDERS_PER_IP_PER_MINUTE = 120;
/** Bound on remembered keys, so a flood of distinct IPs or emails cannot grow memory without end. */
const MAX_KEYS = 50_000;
/** Bound on keys this process remembers as refused; past it the oldest is forgotten (and asks the database again). */
const MAX_BLOCKED_KEYS = 10_000;
/** Expired counter rows one sweep deletes at most, so a sweep stays a short statement. */
export const SWEEP_BATCH = 500;
/** How often a process sweeps when the last sweep found the table clean. */
const SWEEP_INTERVAL_MS = 30_000;

/**
 * A sliding-window counter per key, in this process's memory. Used for the order limits only, which
 * sit on the purchase path (see docs/decisions/002-accounts.md).
 */
export class SlidingWindowCounter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const all = this.hits.get(key);
    if (!all) return [];
    const kept = all.filter((t) => now - t < this.windowMs);
    if (kept.length === 0) this.hits.delete(key);
    else if (kept.length !== all.length) this.hits.set(key, kept);
    return kept;
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  waitMs(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return 0;
    const oldest = recent[recent.length - this.limit] ?? now;
    return Math.max(1, oldest + this.windowMs - now);
  }

  record(key: string, now = Date.now()): void {
    const recent = [...this.recent(key, now), now].slice(-this.limit);
    // Re-inserting moves the key to the end, so eviction below drops the least recently active.
    this.hits.delete(key);
    this.hits.set(key, recent);
    for (const oldest of this.hits.keys()) {
      if (this.hits.size <= MAX_KEYS) break;
      this.hits.delete(oldest);
    }
  }

  clear(key: string): void {
    this.hits.delete(key);
  }
}

/**
 * Keys the database has refused, each until its window ends, in this process's memory. A request with
 * any of them is refused at once, so a client already over its limit costs no database write and cannot
 * fill rate_limit_counters with new email keys while it is being refused. Another process learns of the
 * block from the database on its first try; a key forgotten by the bound is only asked about again.
 */
export class BlockedKeys {
  private readonly until = new Map<string, number>();

  constructor(private readonly maxKeys = MAX_BLOCKED_KEYS) {}

  /** Milliseconds until the longest-blocked of these keys is free; 0 when none is blocked. */
  waitMs(keys: string[], now = Date.now()): number {
    let wait = 0;
    for (const key of keys) {
      const end = this.until.get(key);
      if (end === undefined) continue;
      if (end <= now) this.until.delete(key);
      else wait = Math.max(wait, end - now);
    }
    return wait;
  }

  block(key: string, waitMs: number, now = Date.now()): void {
    // Re-inserting moves the key to the end, so the bound below drops the oldest block.
    this.until.delete(key);
    this.until.set(key, now + waitMs);
    for (const oldest of this.until.keys()) {
      if (this.until.size <= this.maxKeys) break;
      this.until.delete(oldest);
    }
  }
}

/** What one counted key allows: `limit` attempts in a window of `windowMs` from the window's first. */
interface CounterSpec {
  key: string;
  limit: number;
  windowMs: number;
}

/** A key's count after this request took its place, and the window it was counted in. */
export interface CountedAttempt {
  key: string;
  count: number;
  /** The window's end as PostgreSQL text: exact, so a give-back can name the same window. */
  windowEnd: string;
  /** Milliseconds until the window ends, by the database's clock. */
  waitMs: number;
}

/**
 * Counts one attempt against each key in one statement and answers every key's count including it.
 * A key's window starts at its first attempt and lasts `windowMs`; the first attempt after it starts
 * a new one. Keys are taken in sorted order, so two requests sharing keys cannot deadlock.
 */
export async function countAttempts(db: Db, specs: CounterSpec[]): Promise<CountedAttempt[]> {
  const sorted = [...specs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const values = sql.join(
    sorted.map((s) => sql`(${s.key}, 1, now() + ${s.windowMs}::int * interval '1 millisecond')`),
    sql`, `,
  );
  return queryRows<CountedAttempt>(
    db,
    sql`INSERT INTO rate_limit_counters AS c (key, count, expires_at) VALUES ${values}
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN c.expires_at <= now() THEN 1 ELSE c.count + 1 END,
          expires_at = CASE WHEN c.expires_at <= now() THEN excluded.expires_at ELSE c.expires_at END
        RETURNING c.key, c.count, c.expires_at::text AS "windowEnd",
          greatest(1, ceil(extract(epoch FROM c.expires_at - now()) * 1000))::int AS "waitMs"`,
  );
}

/**
 * Takes back attempts counted by countAttempts, each only while its window is still the one it was
 * counted in (a newer window never held it). A missing row is left as an empty one, which the sweep
 * deletes; an update-only statement could not promise the sorted lock order.
 */
export async function uncountAttempts(db: Db, attempts: Pick<CountedAttempt, 'key' | 'windowEnd'>[]): Promise<void> {
  if (attempts.length === 0) return;
  const sorted = [...attempts].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const values = sql.join(
    sorted.map((a) => sql`(${a.key}, 0, ${a.windowEnd}::timestamptz)`),
    sql`, `,
  );
  await db.execute(
    sql`INSERT INTO rate_limit_counters AS c (key, count, expires_at) VALUES ${values}
        ON CONFLICT (key) DO UPDATE SET count = greatest(c.count - 1, 0)
        WHERE c.expires_at = excluded.expires_at`,
  );
}

async function clearCounter(db: Db, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limit_counters WHERE key = ${key}`);
}

/**
 * Deletes up to `batch` expired counters, oldest first, and says how many. SKIP LOCKED lets processes
 * sweep at once without waiting on each other; the outer expiry check spares a row a concurrent
 * attempt has just restarted.
 */
export async function sweepExpiredCounters(db: Db, batch = SWEEP_BATCH): Promise<number> {
  const [row] = await queryRows<{ deleted: number }>(
    db,
    sql`WITH gone AS (
          DELETE FROM rate_limit_counters WHERE key IN (
            SELECT key FROM rate_limit_counters WHERE expires_at <= now()
            ORDER BY expires_at LIMIT ${batch}::int FOR UPDATE SKIP LOCKED
          ) AND expires_at <= now()
          RETURNING 1
        )
        SELECT count(*)::int AS deleted FROM gone`,
  );
  return row?.deleted ?? 0;
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

function emailOf(request: FastifyRequest): string | null {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase() : null;
}

/**
 * Emails are stored as an HMAC keyed with the auth secret: a key of fixed length whatever a client
 * sends (no over-long index entry, no NUL byte PostgreSQL refuses), and the table is not a list of the
 * addresses people typed. A plain hash would be: anyone with the table could hash known addresses and
 * match them; without the secret they cannot.
 */
function hashOf(value: string, secret: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

function isFailure(statusCode: number): boolean {
  return statusCode >= 400 && statusCode < 500 && statusCode !== 429;
}

function refuse(waitMs: number, what: string): AppError {
  const seconds = Math.ceil(waitMs / 1000);
  return new AppError('RATE_LIMITED', `Too many ${what}. Try again in ${seconds} seconds.`, {
    headers: { 'retry-after': String(seconds) },
  });
}

type Role = 'ip-failures' | 'email-failures' | 'sign-ups';

/** What the preHandler counted for a request, for onSend to settle once the answer is known. */
interface Admission {
  counted: (CountedAttempt & { role: Role; limit: number })[];
}

function countersFor(request: FastifyRequest, secret: string): { form: 'sign-in' | 'sign-up'; specs: (CounterSpec & { role: Role })[] } | null {
  if (request.method !== 'POST') return null;
  const path = pathOf(request);
  const form = path === SIGN_IN_PATH ? 'sign-in' : path === SIGN_UP_PATH ? 'sign-up' : null;
  if (!form) return null;
  const failures = { limit: FAILED_ATTEMPTS_PER_MINUTE, windowMs: MINUTE_MS };
  const email = emailOf(request);
  return {
    form,
    specs: [
      { role: 'ip-failures', key: `${form}-failures:ip:${request.ip}`, ...failures },
      ...(email ? [{ role: 'email-failures' as const, key: `${form}-failures:email:${hashOf(email, secret)}`, ...failures }] : []),
      ...(form === 'sign-up' ? [{ role: 'sign-ups' as const, key: `sign-ups:ip:${request.ip}`, limit: SIGN_UPS_PER_IP_PER_HOUR, windowMs: HOUR_MS }] : []),
    ],
  };
}

/**
 * Abuse limits on password sign-in and sign-up, per IP and per email, counted in the database so every
 * server process shares them. Only failures stay counted, so a user who signs in correctly is never
 * slowed down, and a success clears the email's failures. An attempt is counted when admitted and
 * given back when it turns out not to be a failure: checking first and counting on the answer would let
 * a burst of simultaneous guesses all pass the check before the first one failed. Order creation is
 * limited per buyer and per IP in memory (registerOrderLimits). Off when RATE_LIMIT=false (the test
 * default; the rate-limit tests switch it on).
 */
export async function registerRateLimits(app: FastifyInstance, ctx: AppContext): Promise<void> {
  if (!ctx.config.rateLimit) return;
  const admissions = new WeakMap<FastifyRequest, Admission>();
  const sweep = { nextAt: 0, running: false };
  const blocked = new BlockedKeys();
  const secret = ctx.config.authSecret;

  app.addHook('preHandler', async (request) => {
    const counters = countersFor(request, secret);
    if (!counters) return;
    const failureKeys = counters.specs.filter((s) => s.role !== 'sign-ups').map((s) => s.key);
    const knownWait = blocked.waitMs(failureKeys);
    if (knownWait > 0) throw refuse(knownWait, `failed ${counters.form} attempts`);
    // A database that does not answer throws here: the request gets the 503 of any outage, never an
    // unlimited try.
    const counts = await countAttempts(ctx.db, counters.specs);
    const counted = counters.specs.map((spec) => {
      const found = counts.find((c) => c.key === spec.key);
      if (!found) throw new Error(`rate limit counter ${spec.role} not returned`);
      return { ...found, role: spec.role, limit: spec.limit };
    });
    admissions.set(request, { counted });
    const over = (roles: Role[]) => counted.filter((c) => roles.includes(c.role) && c.count > c.limit);
    const overFailures = over(['ip-failures', 'email-failures']);
    for (const c of overFailures) blocked.block(c.key, c.waitMs);
    if (overFailures.length > 0) throw refuse(Math.max(...overFailures.map((c) => c.waitMs)), `failed ${counters.form} attempts`);
    const overSignUps = over(['sign-ups']);
    if (overSignUps.length > 0) throw refuse(Math.max(...overSignUps.map((c) => c.waitMs)), 'new accounts from this network');
  });

  registerOrderLimits(app, ctx);

  // Settled before the answer leaves, so a client's next request already meets the settled counts.
  app.addHook('onSend', async (request, reply) => {
    const admission = admissions.get(request);
    if (!admission) return;
    admissions.delete(request);
    const { statusCode } = reply;
    const keep: Role[] = isFailure(statusCode) ? ['ip-failures', 'email-failures'] : statusCode >= 200 && statusCode < 300 ? ['sign-ups'] : [];
    const cleared = statusCode >= 200 && statusCode < 300 ? admission.counted.find((c) => c.role === 'email-failures') : undefined;
    const giveBack = admission.counted.filter((c) => !keep.includes(c.role) && c !== cleared);
    try {
      // Each statement changes its rows in key order, so running them side by side cannot deadlock.
      await Promise.all([uncountAttempts(ctx.db, giveBack), cleared ? clearCounter(ctx.db, cleared.key) : null]);
    } catch (error) {
      // The attempt stays counted: stricter for one window, never looser.
      request.log.warn({ err: error }, 'rate limit counter not settled');
    }
  });

  // Off the answer's path: a cheap, bounded sweep keeps the table to the keys of the last hour.
  app.addHook('onResponse', async (request) => {
    if (!countersFor(request, secret) || sweep.running || Date.now() < sweep.nextAt) return;
    sweep.running = true;
    try {
      const deleted = await sweepExpiredCounters(ctx.db);
      // A full batch means more are waiting: sweep again on the next attempt rather than in 30 s.
      sweep.nextAt = deleted >= SWEEP_BATCH ? 0 : Date.now() + SWEEP_INTERVAL_MS;
    } catch (error) {
      sweep.nextAt = Date.now() + SWEEP_INTERVAL_MS;
      request.log.warn({ err: error }, 'rate limit sweep failed');
    } finally {
      sweep.running = false;
    }
  });
}

function isOrderCreation(request: FastifyRequest): boolean {
  return request.method === 'POST' && pathOf(request) === ORDER_PATH;
}

/**
 * Order creation, per buyer and per IP, in this process's memory: it sits on the purchase path, where a
 * round trip per order would cost every buyer, and its limits guard capacity, not passwords (see
 * docs/decisions/002-accounts.md). Unlike sign-in, every admitted attempt counts (a created order, a
 * refused one, a replay): each one is a transaction, and a buyer's real pace is a few a minute.
 * Attempts are counted when admitted, not when answered, so a burst of simultaneous requests cannot all
 * slip under the limit before the first one finishes.
 */
function registerOrderLimits(app: FastifyInstance, ctx: AppContext): void {
  const ordersByUser = new SlidingWindowCounter(ORDERS_PER_USER_PER_MINUTE, MINUTE_MS);
  const ordersByIp = new SlidingWindowCounter(ORDERS_PER_IP_PER_MINUTE, MINUTE_MS);

  app.addHook('preHandler', async (request) => {
    if (!isOrderCreation(request)) return;
    // Memoised per request (session.ts): the route's requireUser does not ask the database again.
    const user = await getSessionUser(ctx.auth, request);
    const ipKey = `ip:${request.ip}`;
    const userKey = user ? `user:${user.id}` : null;
    const waitMs = Math.max(ordersByIp.waitMs(ipKey), userKey ? ordersByUser.waitMs(userKey) : 0);
    if (waitMs > 0) throw refuse(waitMs, 'orders');
    ordersByIp.record(ipKey);
    if (userKey) ordersByUser.record(userKey);
  });
}
