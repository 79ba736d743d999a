import { z } from 'zod';

/**
 * The only reader of process.env. Every setting is parsed here once at start-up so a bad value stops
 * the server with a message naming the variable, instead of failing later on the first request.
 */
const DEV_SECRET = 'bulkcart-development-secret-not-for-production-use';
const GOOGLE_DISCOVERY = 'https://accounts.google.com/.well-known/openid-configuration';

const boolean = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_MIGRATION_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  READ_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  DB_NAMED_STATEMENTS: boolean.default(true),
  DATA_DIR: z.string().min(1).default('./data'),
  BASE_URL: z.url().optional(),
  TRUSTED_ORIGINS: list.optional(),
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_DISCOVERY_URL: z.url().default(GOOGLE_DISCOVERY),
  SEED_DEMO: boolean.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  CORS_ORIGINS: list.optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  DB_POOL_WAIT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  DB_POOL_IDLE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  RATE_LIMIT: boolean.default(true),
  TRUST_PROXY_HOPS: z.coerce
    .number({ error: 'must be a whole number of proxies (0 or more)' })
    .int('must be a whole number of proxies (0 or more)')
    .min(0, 'must be a whole number of proxies (0 or more)')
    .default(0),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('BulkCart <orders@bulkcart.local>'),
  ORDER_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(60_000),
  MAIL_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  PROCESS_ROLE: z.enum(['all', 'web', 'worker'], { error: 'must be all, web or worker' }).default('all'),
  JOB_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  SHUTDOWN_DEADLINE_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
  CATALOG_CACHE_MS: z.coerce.number().int().min(0).max(5_000).default(1_000),
  ADMIN_EMAILS: list.optional(),
  BUYER_VERIFICATION: z.enum(['tiers', 'required', 'off'], { error: 'must be tiers, required or off' }).default('tiers'),
  REQUIRE_VERIFIED_SELLERS: boolean.default(false),
  PASSWORD_HASH: z.enum(['scrypt', 'test-sha256'], { error: 'must be scrypt or test-sha256' }).default('scrypt'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  baseUrl: string;
  trustedOrigins: string[];
  corsOrigins: string[];
  /** poolWaitMs: how long a request waits for a free PostgreSQL connection before it is answered 503. */
  /**
   * poolIdleMs: how long an unused PostgreSQL connection stays open. Each connection has its prepared
   * statements parsed and planned; a new one pays that again (a Buy Now burst after a lull cost half
   * as much CPU again per order on new connections, docs/decisions/037-pool-idle-timeout.md), so a
   * lull shorter than this costs nothing.
   */
  /**
   * migrationUrl: a direct connection (not through PgBouncer) for the migrations at start-up; null:
   * they run on `url`. readUrl: a read replica (or a pooler in front of replicas) for the lag-tolerant
   * reads, used while it is at most readMaxLagMs behind (plugins/read-routing.ts); null: every read on `url`.
   * namedStatements: the purchase's statements are prepared once per connection under a name
   * (db/prepared.ts); false sends them unnamed, for a pooler that cannot keep a name across transactions
   * (PgBouncer before 1.21 in transaction pooling, docs/deploy.md).
   */
  database:
    | {
        kind: 'postgres';
        url: string;
        poolSize: number;
        poolWaitMs: number;
        poolIdleMs: number;
        migrationUrl: string | null;
        readUrl: string | null;
        readMaxLagMs: number;
        namedStatements: boolean;
      }
    | { kind: 'pglite'; dataDir: string | null };
  authSecret: string;
  google: { clientId: string; clientSecret: string; discoveryUrl: string } | null;
  seedDemo: boolean;
  logLevel: Env['LOG_LEVEL'];
  webDist: string | null;
  rateLimit: boolean;
  /**
   * Proxies in front of the server that append to X-Forwarded-For. The client IP is the entry this
   * many hops from the right; anything further left was written by the client and is never trusted.
   */
  trustProxyHops: number;
  /** Email of order notifications; null: in-app notifications only (docs/decisions/012-order-workflow.md). */
  mail: { smtpUrl: string; from: string } | null;
  /** How often each process runs the order sweep (3-business-day cancel, late flags) and the mail deliverer. */
  orderSweepIntervalMs: number;
  mailIntervalMs: number;
  /**
   * What this process does (docs/deploy.md): `all` serves HTTP and runs the background work (one
   * process is a whole shop), `web` serves HTTP only, `worker` runs the background work and serves
   * only /api/health.
   */
  processRole: 'all' | 'web' | 'worker';
  /**
   * How long a background claim (a periodic task, an e-mail being sent, an import job) lasts unless
   * its holder renews it; holders renew every third of it, so a live holder never loses one, and a
   * killed one lets another process take the work after at most this long.
   */
  jobLeaseMs: number;
  /**
   * How long this process may answer from a session it resolved, without asking the database again:
   * the longest a session ended by another process still works here (docs/decisions/021-session-cache.md). 0: off.
   */
  sessionCacheMs: number;
  /**
   * How long a stopping process (SIGTERM, SIGINT) may take to finish the requests in flight; past it,
   * it exits 1 whatever is left, so a hung request cannot keep it alive.
   */
  shutdownDeadlineMs: number;
  /**
   * How long this process may answer a public catalog read (the product list, the featured products, a
   * product) from one it read before, unless it made a write since: the longest a change made by another
   * process stays unseen here (docs/decisions/028-catalog-answer-cache.md). 0: off.
   */
  catalogCacheMs: number;
  /** Operators: the accounts with these emails (lower case) review business verifications. */
  adminEmails: string[];
  /** What verification changes (docs/decisions/014-business-verification.md). */
  buyerVerification: 'tiers' | 'required' | 'off';
  /** Whether listing products needs a verified e-mail (docs/decisions/015-account-trust.md). */
  requireVerifiedSellers: boolean;
  /**
   * How account passwords are hashed: scrypt always in production; `test-sha256` is the test suites'
   * cheap stand-in (modules/accounts/test-password-hash.ts), refused at start-up in production.
   */
  passwordHash: 'scrypt' | 'test-sha256';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const baseUrl = (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const problems: string[] = [];

  if (isProduction) {
    if (!env.BETTER_AUTH_SECRET) problems.push('BETTER_AUTH_SECRET: required in production (32+ random characters)');
    else if (env.BETTER_AUTH_SECRET.trim().length < 32) problems.push('BETTER_AUTH_SECRET: must be 32+ random characters, not spaces');
    else if (env.BETTER_AUTH_SECRET === DEV_SECRET) problems.push('BETTER_AUTH_SECRET: the development secret cannot be used in production');
    if (!baseUrl.startsWith('https://')) problems.push('BASE_URL: must be an https URL in production');
    const plainOrigins = (env.TRUSTED_ORIGINS ?? []).filter((origin) => !origin.startsWith('https://'));
    if (plainOrigins.length > 0) problems.push(`TRUSTED_ORIGINS: must be https origins in production (not ${plainOrigins.join(', ')})`);
    if (env.SEED_DEMO) problems.push('SEED_DEMO: demo accounts are never seeded in production');
    if (env.PASSWORD_HASH !== 'scrypt') problems.push(`PASSWORD_HASH: ${env.PASSWORD_HASH} is for test accounts only; production hashes passwords with scrypt`);
  }
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    problems.push('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither');
  }
  if (env.DATABASE_MIGRATION_URL && !env.DATABASE_URL)
    problems.push('DATABASE_MIGRATION_URL: set DATABASE_URL too (the migrations connection is for PostgreSQL)');
  if (env.DATABASE_READ_URL && !env.DATABASE_URL) problems.push('DATABASE_READ_URL: set DATABASE_URL too (a read replica is one of the PostgreSQL primary)');
  if (env.PROCESS_ROLE !== 'all' && !env.DATABASE_URL) {
    // The embedded database belongs to one process, which then does everything.
    problems.push(`PROCESS_ROLE: ${env.PROCESS_ROLE} needs DATABASE_URL (PostgreSQL); with the embedded database the one process runs as all`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const database: Config['database'] = env.DATABASE_URL
    ? {
        kind: 'postgres',
        url: env.DATABASE_URL,
        poolSize: env.DB_POOL_SIZE,
        poolWaitMs: env.DB_POOL_WAIT_MS,
        poolIdleMs: env.DB_POOL_IDLE_MS,
        migrationUrl: env.DATABASE_MIGRATION_URL ?? null,
        readUrl: env.DATABASE_READ_URL ?? null,
        readMaxLagMs: env.READ_REPLICA_MAX_LAG_MS,
        namedStatements: env.DB_NAMED_STATEMENTS,
      }
    : { kind: 'pglite', dataDir: env.DATA_DIR === ':memory:' ? null : env.DATA_DIR };

  // In development the same server is often opened as localhost and as 127.0.0.1.
  const devAliases = isProduction ? [] : [baseUrl.replace('//localhost', '//127.0.0.1'), baseUrl.replace('//127.0.0.1', '//localhost')];

  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    baseUrl,
    trustedOrigins: [...new Set([baseUrl, ...devAliases, ...(env.TRUSTED_ORIGINS ?? [])])],
    corsOrigins: env.CORS_ORIGINS ?? [],
    database,
    authSecret: env.BETTER_AUTH_SECRET ?? DEV_SECRET,
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, discoveryUrl: env.GOOGLE_DISCOVERY_URL }
        : null,
    // Demo data belongs to the embedded database unless asked for explicitly; never in production.
    seedDemo: !isProduction && (env.SEED_DEMO ?? database.kind === 'pglite'),
    logLevel: env.LOG_LEVEL,
    webDist: env.WEB_DIST ?? null,
    rateLimit: env.RATE_LIMIT,
    trustProxyHops: env.TRUST_PROXY_HOPS,
    mail: env.SMTP_URL ? { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM } : null,
    orderSweepIntervalMs: env.ORDER_SWEEP_INTERVAL_MS,
    mailIntervalMs: env.MAIL_INTERVAL_MS,
    processRole: env.PROCESS_ROLE,
    jobLeaseMs: env.JOB_LEASE_MS,
    sessionCacheMs: env.SESSION_CACHE_MS,
    shutdownDeadlineMs: env.SHUTDOWN_DEADLINE_MS,
    catalogCacheMs: env.CATALOG_CACHE_MS,
    adminEmails: (env.ADMIN_EMAILS ?? []).map((email) => email.toLowerCase()),
    buyerVerification: env.BUYER_VERIFICATION,
    requireVerifiedSellers: env.REQUIRE_VERIFIED_SELLERS,
    passwordHash: env.PASSWORD_HASH,
  };
}
