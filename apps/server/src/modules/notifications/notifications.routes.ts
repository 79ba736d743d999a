import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { markedReadSchema, notificationListQuerySchema, notificationListSchema, notificationSchema, unreadCountSchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../lib/define-route.ts';
import { sendPage } from '../../lib/pagination.ts';
import type { SessionUser } from '../accounts/session.ts';
import { countUnread, listNotifications, markAllRead, markRead, type NotificationsContext } from './notifications.service.ts';

const tags = ['notifications'];

/** The navbar's bell: the signed-in user's notifications. */
export async function registerNotificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const as = (user: SessionUser): NotificationsContext => ({ db: ctx.db, user });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/notifications',
    auth: 'signedIn',
    summary: 'One page of your notifications, newest first',
    tags,
    querystring: notificationListQuerySchema,
    response: { 200: notificationListSchema },
    handler: async ({ user, query, reply }) => sendPage(reply, '/api/notifications', { limit: query.limit }, await listNotifications(as(user), query)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/notifications/unread-count',
    auth: 'signedIn',
    summary: 'How many of your notifications are unread',
    tags,
    response: { 200: unreadCountSchema },
    handler: ({ user }) => countUnread(as(user)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/notifications/:id/read',
    auth: 'signedIn',
    summary: 'Mark one notification read',
    tags,
    params: z.object({ id: z.string() }),
    response: { 200: notificationSchema },
    handler: ({ user, params }) => markRead(as(user), params.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/notifications/read-all',
    auth: 'signedIn',
    summary: 'Mark all your notifications read',
    tags,
    response: { 200: markedReadSchema },
    handler: ({ user }) => markAllRead(as(user)),
  });
}
