import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { AppContext } from './context.ts';
import { createAuth } from './modules/accounts/auth.ts';
import { handleFrameworkError, registerErrorHandling } from './plugins/errors.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { registerHealthRoutes } from './modules/health/health.routes.ts';
import { registerAccountRoutes } from './modules/accounts/accounts.routes.ts';
import { registerProductRoutes } from './modules/products/products.routes.ts';
import { registerOrderRoutes } from './modules/orders/orders.routes.ts';
import { registerSearchRoutes } from './modules/search/search.routes.ts';

export const BODY_LIMIT_BYTES = 100 * 1024;

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Pino logger options; tests pass `false`. */
  logger?: boolean | object;
}

/** Builds the Fastify instance without listening: used by server.ts and by the tests. */
export async function buildApp({ config, database, logger }: BuildAppOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    // A hop count, never `true`: with `true` request.ip is the leftmost X-Forwarded-For entry, which
    // the client writes itself, and per-IP limits would count whatever it claims. A function, because
    // this Fastify treats a plain number as "trust nothing".
    trustProxy: config.trustProxyHops > 0 ? (_address: string, hop: number) => hop < config.trustProxyHops : false,
    return503OnClosing: true,
    // Router errors (a URL that does not decode, an over-long parameter) answer in our error shape.
    frameworkErrors: handleFrameworkError,
    // An email may be 254 characters, three times that percent-encoded; Fastify's default is 100.
    routerOptions: { maxParamLength: 800 },
  });
  // JSON is the only body the API takes. text/plain is also what a cross-site form can send without
  // a CORS preflight, so it gets 415 like every other type.
  app.removeContentTypeParser('text/plain');
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const ctx: AppContext = { config, database, db: database.db, auth: createAuth(config, database.db) };

  await registerErrorHandling(app);
  await registerSecurity(app, config);
  await registerRateLimits(app, ctx);
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await registerHealthRoutes(app, ctx);
  await registerAccountRoutes(app, ctx);
  await registerProductRoutes(app, ctx);
  await registerOrderRoutes(app, ctx);
  await registerSearchRoutes(app, ctx);
  await registerWebApp(app, config.webDist);
  return { app, ctx };
}
