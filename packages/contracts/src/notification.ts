import { z } from 'zod';
import { cursorSchema } from './cursor.ts';
import { LIMITS } from './limits.ts';
import { orderStatusSchema } from './order.ts';

/**
 * What happened to an order (one notification per event and side told), or to the buyer's business
 * verification: its permit expires within 14 days, or has expired (decision 014; no order); or the
 * buyer's checkout placed its orders (decision 015; one notice for all of them, no single order).
 */
export const ORDER_NOTIFICATION_KINDS = ['placed', 'accepted', 'declined', 'shipped', 'delivered', 'cancelled', 'late'] as const;
export type OrderNotificationKind = (typeof ORDER_NOTIFICATION_KINDS)[number];
export const NOTIFICATION_KINDS = [
  ...ORDER_NOTIFICATION_KINDS,
  'verification-expiring',
  'verification-expired',
  'verification-approved',
  'verification-rejected',
  'checkout',
] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** One in-app notification (the navbar's bell); the same text goes out by email when mail is set up. */
export const notificationSchema = z.object({
  _id: z.string(),
  kind: notificationKindSchema,
  orderId: z.string().nullable().describe('null for a notice about the business verification, which opens /business'),
  orderNumber: z.string().nullable().describe('e.g. BC-10427; every order notification names its order; null without one'),
  orderStatus: orderStatusSchema.nullable().describe("The order's status the event led to; null without an order"),
  title: z.string(),
  message: z.string(),
  createdAt: z.string().describe('ISO 8601 timestamp'),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.array(notificationSchema);

/** GET /api/notifications: newest first, paged like every list. */
export const notificationListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageMax).default(LIMITS.pageDefault),
  cursor: z.optional(cursorSchema),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

/** GET /api/notifications/unread-count. */
export const unreadCountSchema = z.object({ count: z.int() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;

/** POST /api/notifications/read-all: how many were marked read. */
export const markedReadSchema = z.object({ marked: z.int() });
export type MarkedRead = z.infer<typeof markedReadSchema>;
