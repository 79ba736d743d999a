import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { SIGN_IN_PATH, SIGN_UP_PATH } from '../../modules/accounts/auth.routes.ts';
import { pathOf } from '../canonical-path.ts';
import { BlockedKeys } from './blocked-keys.ts';
import { clearCounter, countAttempts, uncountAttempts, type CountedAttempt, type CounterSpec } from './database-counters.ts';
import { HOUR_MS, MINUTE_MS, refuse } from './refusal.ts';

/** Failed tries allowed per IP and per email within a minute; the next one is refused (429). */
export const FAILED_ATTEMPTS_PER_MINUTE = 5;
/** Accounts one IP may create per hour: far above a real office, far below a sign-up bot. */
export const SIGN_UPS_PER_IP_PER_HOUR = 300;

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
export function registerSignInLimits(app: FastifyInstance, ctx: AppContext): void {
  const admissions = new WeakMap<FastifyRequest, Admission>();
  const blocked = new BlockedKeys();
  const secret = ctx.config.authSecret;

  const admit = async (request: FastifyRequest, counters: NonNullable<ReturnType<typeof countersFor>>): Promise<void> => {
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
  };
  // Every request passes through these hooks; only sign-in and sign-up wait for a promise.
  app.addHook('preHandler', (request, _reply, done) => {
    const counters = countersFor(request, secret);
    if (!counters) return done();
    admit(request, counters).then(() => done(), done);
  });

  // Settled before the answer leaves, so a client's next request already meets the settled counts.
  const settle = async (request: FastifyRequest, reply: FastifyReply, admission: Admission): Promise<void> => {
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
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    const admission = admissions.get(request);
    if (!admission) return done(null, payload);
    settle(request, reply, admission).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });

  // Expired counters are deleted by the background scheduler (background.ts), not on the answer's path.
}
