import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { CHANGE_EMAIL_PATH, REQUEST_RESET_PATH, SEND_VERIFICATION_PATH } from '../../modules/accounts/auth.routes.ts';
import { getSessionUser } from '../../modules/accounts/session.ts';
import { pathOf } from '../canonical-path.ts';
import { countAttempts, type CounterSpec } from './database-counters.ts';
import { HOUR_MS, refuse } from './refusal.ts';

/** Reset e-mails one address may be sent per hour: enough to retry, too few to flood a mailbox. */
export const RESET_REQUESTS_PER_ADDRESS_PER_HOUR = 5;
/** Reset requests one IP may make per hour, whatever the addresses. */
export const RESET_REQUESTS_PER_IP_PER_HOUR = 30;
/** Confirmation e-mails (resend, change of address) one account may ask for per hour. */
export const CONFIRMATIONS_PER_ACCOUNT_PER_HOUR = 5;

function addressOf(request: FastifyRequest): string | null {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase() : null;
}

/** Keyed by an HMAC of the address, as the sign-in counters are: the table is not a list of addresses. */
function hashOf(value: string, secret: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

async function countersFor(ctx: AppContext, request: FastifyRequest): Promise<{ what: string; specs: CounterSpec[] } | null> {
  if (request.method !== 'POST') return null;
  const path = pathOf(request);
  if (path === REQUEST_RESET_PATH) {
    const address = addressOf(request);
    return {
      what: 'password reset requests',
      specs: [
        { key: `reset:ip:${request.ip}`, limit: RESET_REQUESTS_PER_IP_PER_HOUR, windowMs: HOUR_MS },
        ...(address ? [{ key: `reset:email:${hashOf(address, ctx.config.authSecret)}`, limit: RESET_REQUESTS_PER_ADDRESS_PER_HOUR, windowMs: HOUR_MS }] : []),
      ],
    };
  }
  if (path === SEND_VERIFICATION_PATH || path === CHANGE_EMAIL_PATH) {
    // Signed out, the route answers 401 itself; nothing to count.
    const user = await getSessionUser(ctx.auth, request);
    if (!user) return null;
    return { what: 'confirmation e-mails', specs: [{ key: `confirmations:user:${user.id}`, limit: CONFIRMATIONS_PER_ACCOUNT_PER_HOUR, windowMs: HOUR_MS }] };
  }
  return null;
}

/**
 * Limits on the requests that make us send e-mail on someone's behalf, so nobody can use BulkCart to
 * flood a mailbox: every request counts (success or not), per address and per IP for resets, per
 * account for confirmations. Counted in the database like the sign-in limits, so every process shares them.
 */
export function registerAccountEmailLimits(app: FastifyInstance, ctx: AppContext): void {
  const check = async (request: FastifyRequest): Promise<void> => {
    const counters = await countersFor(ctx, request);
    if (!counters) return;
    const counts = await countAttempts(ctx.db, counters.specs);
    const over = counts.filter((c) => c.count > (counters.specs.find((s) => s.key === c.key)?.limit ?? Infinity));
    if (over.length > 0) throw refuse(Math.max(...over.map((c) => c.waitMs)), counters.what);
  };
  // Only POSTs can send e-mail; every other request passes without a promise.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.method !== 'POST') return done();
    check(request).then(() => done(), done);
  });
}
