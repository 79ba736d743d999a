import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { markedReadSchema, notificationListQuerySchema, notificationListSchema, notificationSchema, unreadCountSchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../lib/validate.ts';
import { sendPage } from '../../lib/pagination.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { requireUser } from '../accounts/session.ts';
import { countUnread, listNotifications, markAllRead, markRead, type NotificationsContext } from './notifications.service.ts';

const tags = ['notifications'];

/** The navbar's bell: the signed-in user's notifications. */
export async function registerNotificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const as = async (request: FastifyRequest): Promise<NotificationsContext> => ({ db: ctx.db, user: await requireUser(ctx.auth, request) });

  app.get(
    '/api/notifications',
    routeContract({ summary: 'One page of your notifications, newest first', tags, signedIn: true, querystring: notificationListQuerySchema, response: { 200: notificationListSchema } }),
    async (request, reply) => {
      const who = await as(request);
      const query = parseInput(notificationListQuerySchema, request.query);
      return sendPage(reply, '/api/notifications', { limit: query.limit }, await listNotifications(who, query));
    },
  );

  app.get(
    '/api/notifications/unread-count',
    routeContract({ summary: 'How many of your notifications are unread', tags, signedIn: true, response: { 200: unreadCountSchema } }),
    async (request) => countUnread(await as(request)),
  );

  app.post<{ Params: { id: string } }>(
    '/api/notifications/:id/read',
    routeContract({ summary: 'Mark one notification read', tags, signedIn: true, params: z.object({ id: z.string() }), response: { 200: notificationSchema } }),
    async (request) => markRead(await as(request), request.params.id),
  );

  app.post(
    '/api/notifications/read-all',
    routeContract({ summary: 'Mark all your notifications read', tags, signedIn: true, response: { 200: markedReadSchema } }),
    async (request) => markAllRead(await as(request)),
  );
}
