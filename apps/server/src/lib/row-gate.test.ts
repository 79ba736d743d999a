import { describe, expect, it } from 'vitest';
import { createRowGate } from './row-gate.ts';

/** A task that runs until `finish()` is called, recording when it started. */
function heldTask(log: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    task: () => {
      log.push(name);
      return done;
    },
    finish: () => finish(name),
    fail: (message: string) => fail(new Error(message)),
  };
}

/** Lets every settled promise's continuations run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('row gate', () => {
  it('runs at most `width` tasks of a key at once, the others in the order they came', async () => {
    const gate = createRowGate(2);
    const started: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => heldTask(started, name));
    const results = tasks.map((t) => gate.run('p1', t.task));
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(gate.waiting('p1')).toBe(2);

    tasks[1]!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    tasks[0]!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd']);

    tasks[2]!.finish();
    tasks[3]!.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(gate.size()).toBe(0);
  });

  it('keeps keys apart: a busy key never holds up another', async () => {
    const gate = createRowGate(1);
    const started: string[] = [];
    const busy = heldTask(started, 'p1 first');
    const queued = heldTask(started, 'p1 second');
    const other = heldTask(started, 'p2 first');
    const results = [gate.run('p1', busy.task), gate.run('p1', queued.task), gate.run('p2', other.task)];
    await settle();
    expect(started).toEqual(['p1 first', 'p2 first']);
    expect(gate.size()).toBe(2);

    other.finish();
    busy.finish();
    await settle();
    queued.finish();
    expect(await Promise.all(results)).toEqual(['p1 first', 'p1 second', 'p2 first']);
    expect(gate.size()).toBe(0);
  });

  it('passes a failure to its caller and lets the next task go', async () => {
    const gate = createRowGate(1);
    const started: string[] = [];
    const failing = heldTask(started, 'fails');
    const next = heldTask(started, 'next');
    const first = gate.run('p1', failing.task);
    const second = gate.run('p1', next.task);
    failing.fail('the statement failed');
    await expect(first).rejects.toThrow('the statement failed');
    await settle();
    expect(started).toEqual(['fails', 'next']);
    next.finish();
    expect(await second).toBe('next');
    expect(gate.size()).toBe(0);
  });

  it('lets the next task go when a task throws before it returns a promise', async () => {
    const gate = createRowGate(1);
    await expect(
      gate.run('p1', () => {
        throw new Error('thrown at once');
      }),
    ).rejects.toThrow('thrown at once');
    expect(await gate.run('p1', async () => 'ran')).toBe('ran');
    expect(gate.size()).toBe(0);
  });

  it('refuses a width that would let nothing run', () => {
    expect(() => createRowGate(0)).toThrow('at least 1');
    expect(() => createRowGate(1.5)).toThrow('at least 1');
  });
});
