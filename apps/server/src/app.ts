import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import compress from '@fastify/compress';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { AppContext } from './context.ts';
import { createAuth } from './modules/accounts/auth.ts';
import { attachSessionCache, type SessionUser } from './modules/accounts/session.ts';
import { createSessionCache } from './modules/accounts/session-cache.ts';
import { handleFrameworkError, registerErrorHandling, sendApiNotFound } from './plugins/errors.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { registerCanonicalPathRefusal, registerEmptyParamRefusal, rewriteToCanonicalPath } from './plugins/canonical-path.ts';
import { registerJsonBodyParser } from './plugins/json-body.ts';
import { answerClientError } from './plugins/client-errors.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { primaryOnly, registerReadRouting, type ReadRouting } from './plugins/read-routing.ts';
import { lazySerializerFactory } from './lib/lazy-serializers.ts';
import { createAnswerCache, forgetAnswersOnWrites } from './lib/answer-cache.ts';
import { answerUnmatchedApiRequest } from './plugins/method-not-allowed.ts';
import { AccessLog } from './plugins/request-log.ts';
import { registerHealthRoutes } from './modules/health/health.routes.ts';
import { registerAccountRoutes } from './modules/accounts/accounts.routes.ts';
import { registerProductRoutes } from './modules/products/products.routes.ts';
import { registerOrderRoutes } from './modules/orders/orders.routes.ts';
import { registerSearchRoutes } from './modules/search/search.routes.ts';
import { registerSalesRoutes } from './modules/orders/sales.routes.ts';
import { registerDashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { registerNotificationRoutes } from './modules/notifications/notifications.routes.ts';
import { registerBusinessRoutes } from './modules/business/business.routes.ts';
import { isAdminPath, isOperatorRequest, registerAdminRoutes } from './modules/business/admin.routes.ts';
import { createLocalMailbox } from './modules/notifications/local-mailbox.ts';
import { registerDevMailbox } from './modules/notifications/dev-mailbox.routes.ts';
import { registerCartRoutes } from './modules/cart/cart.routes.ts';
import { registerListRoutes } from './modules/cart/lists.routes.ts';
import { registerSellerRoutes } from './modules/sellers/sellers.routes.ts';
import { registerCatalogRoutes } from './modules/catalog/index.ts';

export const BODY_LIMIT_BYTES = 100 * 1024;

/**
 * How long a client may take over a request. The slowest client we serve is a phone on a bad link
 * posting a full 100 KB body: at 60 s that needs 1.7 KB/s (about 14 kbit/s), below what GPRS delivers.
 * A client dripping bytes to hold connections open is cut off at the same 60 s, and one that sends
 * headers that slowly at 15 s. An idle socket outlives the keep-alive window (Fastify's 72 s), so a
 * proxy that reuses a quiet connection never finds it closed under it.
 */
export interface RequestTimeouts {
  requestMs: number;
  headersMs: number;
  idleMs: number;
  /** How often Node checks the two above; the real limit is up to this much later. */
  checkEveryMs: number;
}

export const REQUEST_TIMEOUTS: RequestTimeouts = { requestMs: 60_000, headersMs: 15_000, idleMs: 75_000, checkEveryMs: 2_000 };

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Pino logger options; tests pass `false`. */
  logger?: boolean | object;
  /** Tests shrink these to watch a slow client be cut off in seconds. */
  timeouts?: RequestTimeouts;
  /** The clock order rules read; tests pass one they can move. */
  clock?: () => Date;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route as registered, in order: what the OpenAPI test holds the description to. */
  routes: RouteOptions[];
}

/** The Fastify instance every role starts from: logging, timeouts, body parsing, canonical paths, request ids. */
function createFastify(config: Config, logger: BuildAppOptions['logger'], timeouts: RequestTimeouts): { app: FastifyInstance; routes: RouteOptions[] } {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    // Before the router: every hook, rule, handler and log line sees the one canonical path.
    rewriteUrl: rewriteToCanonicalPath,
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkEveryMs },
    clientErrorHandler: answerClientError,
    // One line per request instead of Fastify's two, API calls at info, the rest at debug.
    logController: new AccessLog(),
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
    // Each route's answer serialisers are built on its first answer with a status (lib/lazy-serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
    // Router errors (a URL that does not decode, an over-long parameter) answer in our error shape.
    frameworkErrors: handleFrameworkError,
    // An email may be 254 characters, three times that percent-encoded; Fastify's default is 100.
    routerOptions: { maxParamLength: 800 },
  });
  // JSON is the only body the API takes. text/plain is also what a cross-site form can send without
  // a CORS preflight, so it gets 415 like every other type.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  // The first hook of all: nothing runs on a path that has no canonical spelling.
  registerCanonicalPathRefusal(app);
  registerEmptyParamRefusal(app);
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  return { app, routes };
}

function createContext(app: FastifyInstance, config: Config, database: Database, clock: () => Date, reads: ReadRouting): AppContext {
  const mailbox = createLocalMailbox({ keep: config.seedDemo, log: app.log });
  const catalogAnswers = createAnswerCache({ ttlMs: config.catalogCacheMs });
  const ctx: AppContext = { config, database, db: database.db, reads, catalogAnswers, auth: createAuth(config, database.db), clock, mailbox };
  // Read through ctx, so a test that moves the clock moves the cache's bound with it.
  attachSessionCache(ctx.auth, createSessionCache<SessionUser>({ ttlMs: config.sessionCacheMs, now: () => ctx.clock().getTime() }));
  return ctx;
}

/**
 * A `worker` process (docs/deploy.md): the background work's context and a server that answers
 * /api/health for the load balancer or process manager, and 404 to everything else.
 */
export async function buildWorkerApp({ config, database, logger, timeouts = REQUEST_TIMEOUTS, clock = () => new Date() }: BuildAppOptions): Promise<BuiltApp> {
  const { app, routes } = createFastify(config, logger, timeouts);
  // A worker serves no reads: it never opens the replica.
  const ctx = createContext(app, config, database, clock, primaryOnly(database));
  await registerErrorHandling(app);
  await registerHealthRoutes(app, ctx);
  app.setNotFoundHandler((_request, reply) => sendApiNotFound(reply));
  return { app, ctx, routes };
}

/** Builds the Fastify instance without listening: used by server.ts and by the tests. */
export async function buildApp({ config, database, logger, timeouts = REQUEST_TIMEOUTS, clock = () => new Date() }: BuildAppOptions): Promise<BuiltApp> {
  const { app, routes } = createFastify(config, logger, timeouts);

  const ctx = createContext(app, config, database, clock, await registerReadRouting(app, config, database));
  forgetAnswersOnWrites(app, ctx);

  await registerOpenApi(app, { bodyLimitBytes: BODY_LIMIT_BYTES });
  await registerErrorHandling(app);
  await registerSecurity(app, config, ctx.auth);
  registerRateLimits(app, ctx);
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await registerHealthRoutes(app, ctx);
  await registerAccountRoutes(app, ctx);
  await registerProductRoutes(app, ctx);
  await registerOrderRoutes(app, ctx);
  await registerSalesRoutes(app, ctx);
  await registerNotificationRoutes(app, ctx);
  await registerSearchRoutes(app, ctx);
  await registerBusinessRoutes(app, ctx);
  await registerAdminRoutes(app, ctx);
  await registerCartRoutes(app, ctx);
  await registerListRoutes(app, ctx);
  await registerSellerRoutes(app, ctx);
  await registerDashboardRoutes(app, ctx);
  await registerCatalogRoutes(app, ctx);
  if (config.seedDemo) registerDevMailbox(app, ctx);
  await registerWebApp(
    app,
    config.webDist,
    answerUnmatchedApiRequest(routes, { isPrivate: isAdminPath, mayKnowPrivate: (request) => isOperatorRequest(ctx, request) }),
  );
  return { app, ctx, routes };
}
