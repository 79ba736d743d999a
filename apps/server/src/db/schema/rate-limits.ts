import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Abuse-limit counters shared by every server process (plugins/rate-limits.ts). One row per key holds
 * the current window: it starts at the key's first counted attempt and ends at `expires_at`, when the
 * next attempt starts a new one. Expired rows are dead weight, deleted in bounded sweeps by expiry.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('rate_limit_counters_count_nonnegative', sql`${t.count} >= 0`), index('rate_limit_counters_expires_at_idx').on(t.expiresAt)],
);
