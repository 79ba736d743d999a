import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { bearer, genericOAuth } from 'better-auth/plugins';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import * as schema from '../../db/schema/index.ts';

export const GOOGLE_PROVIDER_ID = 'google';
const DAY_SECONDS = 24 * 60 * 60;
/** Sessions slide by this much while used, and never outlive SESSION_ABSOLUTE_MS (see session.ts). */
export const SESSION_SLIDING_SECONDS = 7 * DAY_SECONDS;
export const SESSION_ABSOLUTE_MS = 30 * DAY_SECONDS * 1000;

export function createAuth(config: Config, db: Db) {
  return betterAuth({
    appName: 'BulkCart',
    baseURL: config.baseUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: schema.user, session: schema.session, account: schema.account, verification: schema.verification },
    }),
    emailAndPassword: { enabled: true, minPasswordLength: 6, maxPasswordLength: 128, autoSignIn: true },
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
}

export type Auth = ReturnType<typeof createAuth>;
