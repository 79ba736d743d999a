import type { FastifyInstance, FastifyRequest } from 'fastify';
import { READ_AFTER_COOKIE } from '../plugins/read-routing.ts';
import type { SharedAnswer } from './shared-answer.ts';

/**
 * The public catalog reads' answers, kept for a moment (docs/decisions/028-catalog-answer-cache.md):
 * the product list, the featured products and a product page, whose answers do not depend on who asks.
 * Under load a page is read and serialised once per `ttlMs` instead of once per turn of the event loop.
 *
 * Freshness: an answer is used for at most `ttlMs` from the moment its read began, and never after a
 * write in this process: every write request (before its answer leaves) and every background job run
 * forgets all answers, and a read that was under way while that happened stores nothing (the
 * generation check), so it cannot put back what the write replaced. A change made by another process
 * or directly in the database is seen here within `ttlMs`. A browser that wrote through another process
 * carries the read-after-write cookie (plugins/read-routing.ts) and is never answered from here.
 */
export interface AnswerCache {
  /** The answer for `key`: a kept one while it is fresh, else the one `read` gives (shared while it runs). */
  answer(request: FastifyRequest, key: string, read: () => Promise<SharedAnswer>): Promise<SharedAnswer>;
  /** After a write: nothing read before it is answered again. */
  forgetAll(): void;
  /** The bytes of the bodies kept (the bound is `maxBytes`). */
  bytes(): number;
}

export interface AnswerCacheOptions {
  /** How long an answer is used, from the start of its read; 0 turns the cache off. */
  ttlMs: number;
  /** The most body bytes kept; the oldest answers go first. Compressed copies ride along, each smaller. */
  maxBytes?: number;
  /** A monotonic clock in milliseconds (tests pass one they move). */
  now?: () => number;
}

interface Entry {
  answer: SharedAnswer;
  usableUntil: number;
}

/** Eight 48-product pages of the demo catalog weigh under a MiB; 8 MiB keeps every hot page with room. */
export const ANSWER_CACHE_MAX_BYTES = 8 * 1024 * 1024;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function createAnswerCache({ ttlMs, maxBytes = ANSWER_CACHE_MAX_BYTES, now = () => performance.now() }: AnswerCacheOptions): AnswerCache {
  // Insertion order is age order (an entry is re-inserted when renewed): the first is the oldest.
  const entries = new Map<string, Entry>();
  const reading = new Map<string, Promise<SharedAnswer>>();
  let generation = 0;
  let bytes = 0;

  function drop(key: string, entry: Entry): void {
    entries.delete(key);
    bytes -= entry.answer.body.length;
  }

  function store(key: string, answer: SharedAnswer, readStartedAt: number): void {
    const known = entries.get(key);
    if (known) drop(key, known);
    if (answer.body.length > maxBytes) return;
    entries.set(key, { answer, usableUntil: readStartedAt + ttlMs });
    bytes += answer.body.length;
    const at = now();
    for (const [oldestKey, oldest] of entries) {
      if (bytes <= maxBytes && oldest.usableUntil > at) break;
      drop(oldestKey, oldest);
    }
  }

  function readAndKeep(key: string, read: () => Promise<SharedAnswer>): Promise<SharedAnswer> {
    const startedIn = generation;
    const startedAt = now();
    const pending = read().then(
      (answer) => {
        if (reading.get(key) === pending) reading.delete(key);
        if (startedIn === generation) store(key, answer, startedAt);
        return answer;
      },
      (error: unknown) => {
        if (reading.get(key) === pending) reading.delete(key);
        throw error;
      },
    );
    reading.set(key, pending);
    return pending;
  }

  return {
    async answer(request, key, read) {
      if (ttlMs <= 0 || request.headers.cookie?.includes(READ_AFTER_COOKIE)) return read();
      const entry = entries.get(key);
      if (entry) {
        if (entry.usableUntil > now()) return entry.answer;
        drop(key, entry);
      }
      return reading.get(key) ?? readAndKeep(key, read);
    },
    forgetAll() {
      generation += 1;
      entries.clear();
      reading.clear();
      bytes = 0;
    },
    bytes: () => bytes,
  };
}

/**
 * Every write request forgets the kept answers before its answer is sent (its transaction is over by
 * then). Reads `ctx.catalogAnswers` each time, so a test may put in a cache with a clock it moves.
 */
export function forgetAnswersOnWrites(app: FastifyInstance, ctx: { catalogAnswers: AnswerCache }): void {
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (WRITE_METHODS.has(request.method)) ctx.catalogAnswers.forgetAll();
    done(null, payload);
  });
}
