import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
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

/**
 * A sliding-window counter per key, in this process's memory (see docs/decisions/002-accounts.md:
 * with several processes each one counts on its own, so the effective limit is N times higher).
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

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

function emailOf(request: FastifyRequest): string | null {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase() : null;
}

function keysOf(request: FastifyRequest): string[] {
  const email = emailOf(request);
  return [`ip:${request.ip}`, ...(email ? [`email:${email}`] : [])];
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

/**
 * Abuse limits on password sign-in and sign-up, per IP and per email. Only failures count against the
 * minute budget, so a user who signs in correctly is never slowed down; a success clears the email's
 * failures. Order creation is limited per buyer and per IP (registerOrderLimits). Off when
 * RATE_LIMIT=false (the test default; the rate-limit tests switch it on).
 */
export async function registerRateLimits(app: FastifyInstance, ctx: AppContext): Promise<void> {
  if (!ctx.config.rateLimit) return;
  const failedSignIns = new SlidingWindowCounter(FAILED_ATTEMPTS_PER_MINUTE, MINUTE_MS);
  const failedSignUps = new SlidingWindowCounter(FAILED_ATTEMPTS_PER_MINUTE, MINUTE_MS);
  const signUpsByIp = new SlidingWindowCounter(SIGN_UPS_PER_IP_PER_HOUR, HOUR_MS);

  const counterFor = (request: FastifyRequest) => {
    if (request.method !== 'POST') return null;
    const path = pathOf(request);
    if (path === SIGN_IN_PATH) return { failures: failedSignIns, what: 'failed sign-in attempts' };
    if (path === SIGN_UP_PATH) return { failures: failedSignUps, what: 'failed sign-up attempts' };
    return null;
  };

  app.addHook('preHandler', async (request) => {
    const counter = counterFor(request);
    if (!counter) return;
    const waitMs = Math.max(...keysOf(request).map((key) => counter.failures.waitMs(key)));
    if (waitMs > 0) throw refuse(waitMs, counter.what);
    if (counter.failures === failedSignUps) {
      const createWaitMs = signUpsByIp.waitMs(`ip:${request.ip}`);
      if (createWaitMs > 0) throw refuse(createWaitMs, 'new accounts from this network');
    }
  });

  registerOrderLimits(app, ctx);

  app.addHook('onResponse', async (request, reply) => {
    const counter = counterFor(request);
    if (!counter) return;
    if (isFailure(reply.statusCode)) {
      for (const key of keysOf(request)) counter.failures.record(key);
    } else if (reply.statusCode < 300) {
      const email = emailOf(request);
      if (email) counter.failures.clear(`email:${email}`);
      if (counter.failures === failedSignUps) signUpsByIp.record(`ip:${request.ip}`);
    }
  });
}

function isOrderCreation(request: FastifyRequest): boolean {
  return request.method === 'POST' && pathOf(request) === ORDER_PATH;
}

/**
 * Order creation, per buyer and per IP. Unlike sign-in, every admitted attempt counts (a created
 * order, a refused one, a replay): each one is a transaction, and a buyer's real pace is a few a
 * minute. Attempts are counted when admitted, not when answered, so a burst of simultaneous requests
 * cannot all slip under the limit before the first one finishes.
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
