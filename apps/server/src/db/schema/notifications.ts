import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { orders } from './orders.ts';

/** In-app notifications (the bell), written in the transaction of the event they tell of. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Null for notices about the account rather than an order (a permit about to lapse, decision 014). */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    orderNumber: text('order_number'),
    orderStatus: text('order_status'),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_seq_idx').on(t.userId, t.seq.desc()),
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} IS NULL`),
    index('notifications_order_id_idx').on(t.orderId),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * Emails to send, written in the same transaction as their notification and sent afterwards by the
 * deliverer: claimed with a guarded update, marked sent, retried with backoff (modules/notifications).
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    notificationId: uuid('notification_id').references(() => notifications.id, { onDelete: 'set null' }),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A sender holds the row until then; past it, another process may take it over. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** The process holding the claim, or that held it last (host:pid:tag): renewals and marks check it. */
    claimedBy: text('claimed_by'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** The body holds a secret link (verification, password reset): deleted once delivered, never kept. */
    carriesSecret: boolean('carries_secret').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} IS NULL`),
    // The pruning of sent emails (mail-deliverer.ts pruneSentEmails) reads the oldest sent first.
    index('email_outbox_sent_idx')
      .on(t.sentAt)
      .where(sql`${t.sentAt} IS NOT NULL`),
    index('email_outbox_notification_id_idx').on(t.notificationId),
  ],
);
