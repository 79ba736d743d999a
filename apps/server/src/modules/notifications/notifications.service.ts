import { and, count, eq, isNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Notification, NotificationKind, OrderStatus } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { notifications, type NotificationRow } from '../../db/schema/notifications.ts';
import { notFound } from '../../lib/app-error.ts';
import { decodeCursor, takePage, type Page } from '../../lib/pagination.ts';
import type { SessionUser } from '../accounts/session.ts';

export interface NotificationsContext {
  db: Db;
  user: SessionUser;
}

export function toNotification(row: NotificationRow): Notification {
  return {
    _id: row.id,
    kind: row.kind as NotificationKind,
    orderId: row.orderId,
    orderNumber: row.orderNumber,
    orderStatus: row.orderStatus as OrderStatus | null,
    title: row.title,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

/** GET /api/notifications: newest first, served by (user_id, seq DESC). */
export async function listNotifications(ctx: NotificationsContext, input: { limit: number; cursor?: string }): Promise<Page<Notification>> {
  const afterSeq = decodeCursor(input.cursor);
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, ctx.user.id), afterSeq !== null ? lt(notifications.seq, afterSeq) : undefined))
    .orderBy(sql`${notifications.seq} DESC NULLS LAST`)
    .limit(input.limit + 1);
  const page = takePage(rows, input.limit);
  return { items: page.items.map(toNotification), nextCursor: page.nextCursor };
}

/** The bell's number, served by the partial index of unread rows. */
export async function countUnread(ctx: NotificationsContext): Promise<{ count: number }> {
  const [row] = await ctx.db
    .select({ count: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, ctx.user.id), isNull(notifications.readAt)));
  return { count: Number(row?.count ?? 0) };
}

const idSchema = z.uuid();

/** Marks one of the user's notifications read; anyone else's looks unknown (404). Repeating it is harmless. */
export async function markRead(ctx: NotificationsContext, id: string): Promise<Notification> {
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) throw notFound('Notification not found');
  const [row] = await ctx.db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())`, updatedAt: sql`now()` })
    .where(and(eq(notifications.id, parsed.data.toLowerCase()), eq(notifications.userId, ctx.user.id)))
    .returning();
  if (!row) throw notFound('Notification not found');
  return toNotification(row);
}

export async function markAllRead(ctx: NotificationsContext): Promise<{ marked: number }> {
  const rows = await ctx.db
    .update(notifications)
    .set({ readAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(notifications.userId, ctx.user.id), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return { marked: rows.length };
}
