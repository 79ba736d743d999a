import type { FastifyInstance } from 'fastify';
import type { Auth } from './auth.ts';
import { toHeaders } from './session.ts';

/**
 * Mounts better-auth at /api/auth/*. Fastify has already parsed the JSON body, so the request is
 * rebuilt as a Fetch Request for better-auth's handler and its Response copied back.
 */
export async function registerAuthRoutes(app: FastifyInstance, auth: Auth): Promise<void> {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    async handler(request, reply) {
      const url = new URL(request.url, auth.options.baseURL);
      const hasBody = request.method !== 'GET' && request.body !== undefined;
      const headers = toHeaders(request);
      if (hasBody) headers.set('content-type', 'application/json');
      headers.delete('content-length');
      const response = await auth.handler(
        new Request(url, { method: request.method, headers, body: hasBody ? JSON.stringify(request.body) : undefined }),
      );
      reply.status(response.status);
      for (const [key, value] of response.headers) {
        if (key === 'set-cookie' || key === 'content-length') continue;
        reply.header(key, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      reply.header('cache-control', 'no-store');
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
}
