import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { isAPIError } from 'better-auth/api';
import { bearer, genericOAuth } from 'better-auth/plugins';
import type { FastifyBaseLogger } from 'fastify';
import { paths } from '@bulkcart/contracts/routes';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import * as schema from '../../db/schema/index.ts';
import { createRepeatLimiter } from '../../lib/repeat-limiter.ts';
import { isOperatorAddress } from '../business/index.ts';
import {
  queueChangeEmailConfirmation,
  queueChangeEmailNotice,
  queueOperatorAddressRefusal,
  queueOperatorProofEmail,
  queueResetEmail,
  queueVerificationEmail,
  RESET_LINK_SECONDS,
  VERIFY_LINK_SECONDS,
} from './account-emails.ts';
import { testPasswordHash } from './test-password-hash.ts';

export const GOOGLE_PROVIDER_ID = 'google';
const DAY_SECONDS = 24 * 60 * 60;
/** Sessions slide by this much while used, and never outlive SESSION_ABSOLUTE_MS (see session.ts). */
export const SESSION_SLIDING_SECONDS = 7 * DAY_SECONDS;
export const SESSION_ABSOLUTE_MS = 30 * DAY_SECONDS * 1000;

type AuthLogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * better-auth writes to the console by default; its lines belong in the app's JSON log instead, which
 * the routes plug in once Fastify's logger exists (attachAuthLogger). Until then the console it is.
 */
const logSinks = new WeakMap<object, { logger: FastifyBaseLogger | null }>();

export function attachAuthLogger(auth: Auth, logger: FastifyBaseLogger): void {
  const sink = logSinks.get(auth);
  if (sink) sink.logger = logger;
}

/**
 * better-auth logs its refusal of a cross-site request (a foreign Origin, a callback URL off our
 * site, a cross-site form navigation) at error level. The request was the client's fault and was
 * answered 403: worth a warning, not an alert that wakes someone.
 */
const CLIENT_REFUSAL = /^(Invalid (origin|callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL)\b|Blocked cross-site navigation login attempt)/;

function levelOf(level: AuthLogLevel, message: string): AuthLogLevel {
  return level === 'error' && CLIENT_REFUSAL.test(message) ? 'warn' : level;
}

/**
 * What makes two log lines "the same" for the repeat limiter. better-auth reports every failure under
 * one message ('better-auth request failed'), so the error it carries (code or name, and the start of
 * its message) is part of the kind: a new failure within the window still gets its stack written,
 * while an outage's thousand identical errors stay one line.
 */
export function toRepeatKey(level: AuthLogLevel, message: string, args: unknown[]): string {
  const [first] = args;
  if (typeof first !== 'object' || first === null || !('message' in first)) return `${level} ${message}`;
  const code = 'code' in first && (typeof first.code === 'string' || typeof first.code === 'number') ? String(first.code) : undefined;
  const name = 'name' in first && typeof first.name === 'string' ? first.name : '';
  const detail = typeof first.message === 'string' ? first.message.slice(0, 100) : '';
  return `${level} ${message} ${code ?? name} ${detail}`;
}

/** An Error's own fields are not enumerable, so the JSON log would show it as `{}`: spell them out. */
function toLoggable(arg: unknown): unknown {
  if (!(arg instanceof Error)) return arg;
  return { ...arg, name: arg.name, message: arg.message, stack: arg.stack, ...(arg.cause !== undefined ? { cause: toLoggable(arg.cause) } : {}) };
}

export function createAuth(config: Config, db: Db) {
  const sink: { logger: FastifyBaseLogger | null } = { logger: null };
  // During a database outage better-auth reports every failed session read: one line per request.
  const decideRepeat = createRepeatLimiter();
  const log = (requestedLevel: AuthLogLevel, message: string, ...args: unknown[]) => {
    const level = levelOf(requestedLevel, message);
    const { write, suppressed } = decideRepeat(toRepeatKey(level, message, args));
    if (!write) return;
    const repeated = suppressed > 0 ? { suppressedSinceLast: suppressed } : {};
    if (sink.logger) sink.logger[level]({ source: 'better-auth', ...repeated, details: args.length > 0 ? args.map(toLoggable) : undefined }, message);
    else if (level === 'error') console.error('[better-auth]', message, ...args);
    else if (level === 'warn') console.warn('[better-auth]', message, ...args);
  };
  const auth = betterAuth({
    appName: 'BulkCart',
    logger: { level: 'warn', log },
    onAPIError: {
      // A 4xx is the client's mistake and shows in the access log already; only our failures are news.
      onError(error) {
        if (isAPIError(error) && error.statusCode < 500) return;
        log('error', 'better-auth request failed', error);
      },
      // Where a failed Google sign-in lands when the app gave no error page: back to sign-in, quietly.
      errorURL: `${config.baseUrl}/login`,
    },
    baseURL: config.baseUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: schema.user, session: schema.session, account: schema.account, verification: schema.verification },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: true,
      // better-auth's own scrypt unless the test configuration asks for the cheap stand-in.
      ...(config.passwordHash === 'test-sha256' ? { password: testPasswordHash } : {}),
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      // A reset link is the mailbox speaking: whoever held the account's sessions is signed out.
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user, token }) => queueResetEmail(db, config, user.email, token),
      async onPasswordReset({ user }) {
        await db
          .update(schema.user)
          .set({ emailVerified: true, ownerProvenAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(schema.user.id, user.id));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // Never: a stranger may have signed up with the address, and the owner clicking the link must not
      // land inside the stranger's account.
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_LINK_SECONDS,
      sendVerificationEmail: ({ user, url }) => queueAddressEmail(user, url),
    },
    // A new address is confirmed at the new mailbox (sendVerificationEmail); the old one is told.
    user: { changeEmail: { enabled: true } },
    // Reset tokens are looked up by identifier; the table keeps only their hash.
    verification: { storeIdentifier: 'hashed' },
    databaseHooks: {
      user: {
        create: {
          // Only a provider that vouched for the address (Google's email_verified) creates a verified user.
          async after(created) {
            if (created.emailVerified)
              await db
                .update(schema.user)
                .set({ ownerProvenAt: sql`now()` })
                .where(eq(schema.user.id, created.id));
          },
        },
      },
    },
    session: { expiresIn: SESSION_SLIDING_SECONDS, updateAge: DAY_SECONDS },
    // Our own limiter (rate-limits.ts) keys on IP and email; better-auth's would double count.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: config.isProduction,
      // Under NODE_ENV=test better-auth turns these checks off by itself; we never want that.
      disableCSRFCheck: false,
      disableOriginCheck: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.isProduction },
    },
    plugins: [
      bearer(),
      ...(config.google
        ? [
            genericOAuth({
              config: [
                {
                  providerId: GOOGLE_PROVIDER_ID,
                  clientId: config.google.clientId,
                  clientSecret: config.google.clientSecret,
                  discoveryUrl: config.google.discoveryUrl,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                  authentication: 'post',
                },
              ],
            }),
          ]
        : []),
    ],
  });
  logSinks.set(auth, sink);

  /**
   * better-auth asks for a confirmation e-mail in two cases: a new account (the user's address) and a
   * change of address (the user as it will be, with the new address). An operator's address is never
   * confirmed by a click: its owner chooses the password through a reset link instead, and no account
   * may move onto it.
   */
  async function queueAddressEmail(target: { id: string; email: string; name: string }, url: string): Promise<void> {
    const address = target.email.toLowerCase();
    const [current] = await db.select({ email: schema.user.email }).from(schema.user).where(eq(schema.user.id, target.id));
    const link = withCallback(url, config);
    if (current && current.email.toLowerCase() !== address) {
      if (isOperatorAddress(config, address)) return queueOperatorAddressRefusal(db, address);
      await queueChangeEmailConfirmation(db, address, link);
      return queueChangeEmailNotice(db, current.email, address);
    }
    if (isOperatorAddress(config, address)) {
      const token = randomBytes(24).toString('base64url');
      const context = await auth.$context;
      await context.internalAdapter.createVerificationValue({
        identifier: `reset-password:${token}`,
        value: target.id,
        expiresAt: new Date(Date.now() + RESET_LINK_SECONDS * 1000),
      });
      return queueOperatorProofEmail(db, config, address, token);
    }
    return queueVerificationEmail(db, address, target.name, link);
  }

  return auth;
}

export type Auth = ReturnType<typeof createAuth>;

/** Where a confirmation link lands: the account settings, which say whether it worked. */
function withCallback(url: string, config: Config): string {
  const link = new URL(url);
  link.searchParams.set('callbackURL', `${config.baseUrl}${paths.settings}?confirmed=1`);
  return link.href;
}
