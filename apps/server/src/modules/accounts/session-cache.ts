import { createHash } from 'node:crypto';

/**
 * Sessions this process resolved recently, so a signed-in request costs no better-auth call and no
 * database read (docs/decisions/021-session-cache.md). Keyed by a SHA-256 of the credentials the request
 * carried (its Authorization and Cookie headers), never by the token itself; an entry lives at most
 * `ttlMs`, and never past the session's own expiry or its absolute lifetime.
 *
 * What ends a session in this process (sign-out and every other better-auth endpoint, "sign out
 * everywhere else", deleting the account, an over-age session) calls `forgetAll()`. A lookup that started
 * before that call cannot store what it read afterwards (the generation check), so a session ended here
 * is refused from the next request on. A session ended by another process, or in the database directly,
 * is refused here within `ttlMs`.
 */
export interface CachedSession<User> {
  user: User;
  /** Milliseconds since the epoch: the entry is not used from then on. */
  usableUntil: number;
}

export interface SessionCache<User> {
  /** The key for these credentials; null when the cache is off. */
  keyOf(authorization: string | undefined, cookie: string | undefined): string | null;
  get(key: string): User | null;
  /** The generation to hand back to `remember`: a lookup started before a `forgetAll` stores nothing. */
  generation(): number;
  remember(key: string, startedAt: number, user: User, sessionEndsAt: number): void;
  forgetAll(): void;
  size(): number;
}

export interface SessionCacheOptions {
  ttlMs: number;
  /** The most entries kept; the oldest goes first. */
  maxEntries?: number;
  now?: () => number;
}

export function createSessionCache<User>({ ttlMs, maxEntries = 10_000, now = Date.now }: SessionCacheOptions): SessionCache<User> {
  const entries = new Map<string, CachedSession<User>>();
  let generation = 0;
  return {
    keyOf(authorization, cookie) {
      if (ttlMs <= 0) return null;
      return createHash('sha256')
        .update(authorization ?? '')
        .update('\n')
        .update(cookie ?? '')
        .digest('base64url');
    },
    get(key) {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.usableUntil <= now()) {
        entries.delete(key);
        return null;
      }
      return entry.user;
    },
    generation: () => generation,
    remember(key, startedAt, user, sessionEndsAt) {
      if (startedAt !== generation) return;
      const usableUntil = Math.min(now() + ttlMs, sessionEndsAt);
      if (usableUntil <= now()) return;
      entries.delete(key);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, { user, usableUntil });
    },
    forgetAll() {
      generation += 1;
      entries.clear();
    },
    size: () => entries.size,
  };
}
