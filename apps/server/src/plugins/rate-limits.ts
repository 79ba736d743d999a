import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerOrderLimits } from './rate-limits/order-limits.ts';
import { registerSignInLimits } from './rate-limits/sign-in-limits.ts';
import { registerAccountEmailLimits } from './rate-limits/account-email-limits.ts';
import { registerExportLimits } from './rate-limits/export-limits.ts';

/**
 * Abuse limits: password sign-in and sign-up counted in the database (every process shares them),
 * order creation counted in memory (it sits on the purchase path), and the requests that send account
 * e-mail (password resets, confirmations), and the CSV downloads (counted in memory). See docs/decisions/007-request-paths.md.
 * Off when RATE_LIMIT=false (the test default; the rate-limit tests switch it on).
 */
export function registerRateLimits(app: FastifyInstance, ctx: AppContext): void {
  if (!ctx.config.rateLimit) return;
  registerSignInLimits(app, ctx);
  registerOrderLimits(app, ctx);
  registerAccountEmailLimits(app, ctx);
  registerExportLimits(app, ctx);
}
