import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isApiPath, pathOf } from './canonical-path.ts';
import { DEFAULT_WEB_DIST } from '../locations.ts';
import { logAtDebug } from './request-log.ts';

/**
 * Serves the built React app. Hashed assets are cached for a year; index.html never, so a deploy is
 * picked up at once. Any non-API path falls back to index.html so deep links load the app.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDist: string | null,
  /** What an /api path no route matched answers (404, or 405 when other methods exist: method-not-allowed.ts). */
  answerUnmatchedApi: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): Promise<void> {
  const root = path.resolve(webDist ?? DEFAULT_WEB_DIST);
  const hasBuild = existsSync(path.join(root, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        // Built assets carry a content hash; images are replaced only by a deploy, so a week is safe.
        const isHashed = filePath.includes(`${path.sep}assets${path.sep}`);
        const isImage = filePath.includes(`${path.sep}images${path.sep}`);
        res.header('cache-control', isHashed ? 'public, max-age=31536000, immutable' : isImage ? 'public, max-age=604800' : 'public, max-age=3600');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(pathOf(request))) return answerUnmatchedApi(request, reply);
    logAtDebug(request);
    if (!hasBuild) return reply.status(503).type('text/plain').send('The web app is not built. Run `npm run build`.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.status(404).send();
    // Unknown file-like paths (e.g. a missing .webp) stay a real 404 instead of serving HTML.
    if (/\.[a-z0-9]{2,5}$/i.test(pathOf(request))) return reply.status(404).type('text/plain').send('Not found');
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
