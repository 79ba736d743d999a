import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { createAnswerCache } from './answer-cache.ts';
import type { SharedAnswer } from './shared-answer.ts';
import { READ_AFTER_COOKIE } from '../plugins/read-routing.ts';

/** docs/decisions/028-catalog-answer-cache.md: how long a kept answer is used, and what forgets it. */

function answerOf(text: string): SharedAnswer {
  return { body: Buffer.from(text), etag: `W/"${text}"`, link: null, encoded: {} };
}

function request(cookie?: string): FastifyRequest {
  // The cache reads only the request's Cookie header.
  return { headers: cookie === undefined ? {} : { cookie } } as FastifyRequest;
}

/** A read that answers `text` when released, counting how many reads ran. */
function reads() {
  let count = 0;
  const waiting: Array<() => void> = [];
  return {
    count: () => count,
    of(text: string, held = false) {
      return () => {
        count += 1;
        if (!held) return Promise.resolve(answerOf(text));
        return new Promise<SharedAnswer>((resolve) => waiting.push(() => resolve(answerOf(text))));
      };
    },
    /** Newest first: a read that began earlier may well end later. */
    releaseAll() {
      for (const release of waiting.splice(0).reverse()) release();
    },
  };
}

async function bodyOf(answer: Promise<SharedAnswer>): Promise<string> {
  return (await answer).body.toString();
}

describe('catalog answer cache', () => {
  it('answers from a kept answer until its time to live, counted from the start of its read', async () => {
    let now = 1_000;
    const cache = createAnswerCache({ ttlMs: 1_000, now: () => now });
    const read = reads();
    expect(await bodyOf(cache.answer(request(), 'k', read.of('first')))).toBe('first');
    now += 999;
    expect(await bodyOf(cache.answer(request(), 'k', read.of('second')))).toBe('first');
    now += 1;
    expect(await bodyOf(cache.answer(request(), 'k', read.of('third')))).toBe('third');
    expect(await bodyOf(cache.answer(request(), 'other', read.of('other')))).toBe('other');
    expect(read.count()).toBe(3);
  });

  it('shares one read among the requests that come while it runs', async () => {
    const cache = createAnswerCache({ ttlMs: 1_000, now: () => 0 });
    const read = reads();
    const pending = [cache.answer(request(), 'k', read.of('one', true)), cache.answer(request(), 'k', read.of('two', true))];
    read.releaseAll();
    expect(await Promise.all(pending.map(bodyOf))).toEqual(['one', 'one']);
    expect(read.count()).toBe(1);
  });

  it('answers nothing read before a write, and keeps nothing a read found while the write happened', async () => {
    const cache = createAnswerCache({ ttlMs: 1_000, now: () => 0 });
    const read = reads();
    await cache.answer(request(), 'k', read.of('before'));
    cache.forgetAll();
    expect(await bodyOf(cache.answer(request(), 'k', read.of('after')))).toBe('after');

    // A read under way when a write is answered: its own request gets what it read, nobody else does.
    const during = cache.answer(request(), 'slow', read.of('read before the write', true));
    cache.forgetAll();
    const later = cache.answer(request(), 'slow', read.of('read after the write', true));
    expect(read.count()).toBe(4);
    read.releaseAll();
    expect(await bodyOf(later)).toBe('read after the write');
    expect(await bodyOf(during)).toBe('read before the write');
    expect(await bodyOf(cache.answer(request(), 'slow', read.of('unused')))).toBe('read after the write');
  });

  it('never answers a browser that carries the read-after-write cookie from what it keeps', async () => {
    const cache = createAnswerCache({ ttlMs: 1_000, now: () => 0 });
    const read = reads();
    await cache.answer(request(), 'k', read.of('kept'));
    expect(await bodyOf(cache.answer(request(`a=b; ${READ_AFTER_COOKIE}=0/1.sig`), 'k', read.of('fresh')))).toBe('fresh');
    expect(await bodyOf(cache.answer(request('a=b'), 'k', read.of('unused')))).toBe('kept');
  });

  it('keeps at most maxBytes of bodies, the oldest going first; a failed read keeps nothing; 0 turns it off', async () => {
    let now = 0;
    const cache = createAnswerCache({ ttlMs: 1_000, maxBytes: 10, now: () => now });
    const read = reads();
    await cache.answer(request(), 'a', read.of('aaaa'));
    now += 1;
    await cache.answer(request(), 'b', read.of('bbbb'));
    now += 1;
    await cache.answer(request(), 'c', read.of('cccc'));
    expect(cache.bytes()).toBe(8);
    // 'a' went to make room for 'c'; read again, it pushes out 'b', the oldest, and 'c' stays.
    expect(await bodyOf(cache.answer(request(), 'a', read.of('AAAA')))).toBe('AAAA');
    expect(await bodyOf(cache.answer(request(), 'c', read.of('unused')))).toBe('cccc');
    expect(await bodyOf(cache.answer(request(), 'b', read.of('BBBB')))).toBe('BBBB');
    await cache.answer(request(), 'huge', read.of('more than ten bytes'));
    expect(cache.bytes()).toBeLessThanOrEqual(10);

    await expect(cache.answer(request(), 'broken', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await bodyOf(cache.answer(request(), 'broken', read.of('recovered')))).toBe('recovered');

    const off = createAnswerCache({ ttlMs: 0 });
    await off.answer(request(), 'k', read.of('x'));
    expect(await bodyOf(off.answer(request(), 'k', read.of('y')))).toBe('y');
  });
});
