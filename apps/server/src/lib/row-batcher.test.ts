import { describe, expect, it } from 'vitest';
import { createRowBatcher } from './row-batcher.ts';

interface Item {
  name: string;
  kind?: string;
}

/** A batcher whose writes wait until the test lets each go; it records every batch it was given. */
function heldBatcher(max = 3) {
  const batches: string[][] = [];
  const releases: Array<(fail?: string) => void> = [];
  const batcher = createRowBatcher<Item, string>({
    max,
    together: (first, item) => (first.kind ?? '') === (item.kind ?? ''),
    write: (_key, items) => {
      batches.push(items.map((item) => item.name));
      return new Promise((resolve, reject) => {
        releases.push((fail) => {
          if (fail) reject(new Error(fail));
          else resolve(items.map((item) => ({ status: 'fulfilled', value: `wrote ${item.name}` })));
        });
      });
    },
  });
  return { batcher, batches, release: (fail?: string) => releases.shift()!(fail) };
}

/** Lets every settled promise's continuations run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('row batcher', () => {
  it('writes an item at once when its key is idle, and the ones that came meanwhile together next, in arrival order, at most `max`', async () => {
    const { batcher, batches, release } = heldBatcher(3);
    const results = ['a', 'b', 'c', 'd', 'e'].map((name) => batcher.submit('p1', { name }));
    await settle();
    expect(batches).toEqual([['a']]);
    expect(batcher.waiting('p1')).toBe(4);

    release();
    await settle();
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
    expect(batcher.waiting('p1')).toBe(1);
    release();
    await settle();
    expect(batches).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    release();
    expect(await Promise.all(results)).toEqual(['wrote a', 'wrote b', 'wrote c', 'wrote d', 'wrote e']);
    expect(batcher.size()).toBe(0);
  });

  it('puts in a batch only the items that may go with its first; the others keep their place for the next', async () => {
    const { batcher, batches, release } = heldBatcher(5);
    const results = [
      batcher.submit('p1', { name: 'a' }),
      batcher.submit('p1', { name: 'b', kind: 'edited' }),
      batcher.submit('p1', { name: 'c' }),
      batcher.submit('p1', { name: 'd', kind: 'edited' }),
      batcher.submit('p1', { name: 'e' }),
    ];
    await settle();
    release();
    await settle();
    expect(batches).toEqual([['a'], ['b', 'd']]);
    release();
    await settle();
    expect(batches).toEqual([['a'], ['b', 'd'], ['c', 'e']]);
    release();
    expect(await Promise.all(results)).toHaveLength(5);
  });

  it('keeps keys apart: a busy key never holds up another', async () => {
    const { batcher, batches, release } = heldBatcher();
    const results = [batcher.submit('p1', { name: 'p1 first' }), batcher.submit('p1', { name: 'p1 second' }), batcher.submit('p2', { name: 'p2 first' })];
    await settle();
    expect(batches).toEqual([['p1 first'], ['p2 first']]);
    expect(batcher.size()).toBe(2);
    release();
    release();
    await settle();
    release();
    expect(await Promise.all(results)).toEqual(['wrote p1 first', 'wrote p1 second', 'wrote p2 first']);
    expect(batcher.size()).toBe(0);
  });

  it("gives each item its own outcome, and a failed batch's failure to each of its items; the next batch still goes", async () => {
    const outcomes = createRowBatcher<Item, string>({
      max: 4,
      together: () => true,
      write: async (_key, items) =>
        items.map((item) => (item.name === 'bad' ? { status: 'rejected', reason: new Error('refused bad') } : { status: 'fulfilled', value: item.name })),
    });
    const settled = await Promise.allSettled([
      outcomes.submit('p1', { name: 'good' }),
      outcomes.submit('p1', { name: 'bad' }),
      outcomes.submit('p1', { name: 'fine' }),
    ]);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual(['good', 'refused bad', 'fine']);

    const { batcher, release } = heldBatcher();
    const first = batcher.submit('p1', { name: 'a' });
    const second = [batcher.submit('p1', { name: 'b' }), batcher.submit('p1', { name: 'c' })];
    release('the statement failed');
    await expect(first).rejects.toThrow('the statement failed');
    await settle();
    release('the batch failed');
    for (const item of second) await expect(item).rejects.toThrow('the batch failed');
    const next = batcher.submit('p1', { name: 'd' });
    await settle();
    release();
    expect(await next).toBe('wrote d');
    expect(batcher.size()).toBe(0);
  });

  it('fails the batch when a write throws at once or answers for the wrong number of items, and lets the next go', async () => {
    let calls = 0;
    const batcher = createRowBatcher<Item, string>({
      max: 2,
      together: () => true,
      write: (_key, items) => {
        calls += 1;
        if (calls === 1) throw new Error('thrown at once');
        if (calls === 2) return Promise.resolve([]);
        return Promise.resolve(items.map((item) => ({ status: 'fulfilled' as const, value: item.name })));
      },
    });
    await expect(batcher.submit('p1', { name: 'a' })).rejects.toThrow('thrown at once');
    await expect(batcher.submit('p1', { name: 'b' })).rejects.toThrow('a batch of 1 was written with 0 outcomes');
    expect(await batcher.submit('p1', { name: 'c' })).toBe('c');
    expect(batcher.size()).toBe(0);
  });

  it('refuses a size that would hold nothing', () => {
    const write = async () => [];
    expect(() => createRowBatcher({ max: 0, together: () => true, write })).toThrow('at least 1');
    expect(() => createRowBatcher({ max: 1.5, together: () => true, write })).toThrow('at least 1');
  });
});
