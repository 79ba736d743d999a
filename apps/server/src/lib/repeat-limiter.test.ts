import { describe, expect, it } from 'vitest';
import { createRepeatLimiter } from './repeat-limiter.ts';

function clock(start = 0) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

describe('repeat limiter', () => {
  it('writes the first line of a kind, then one per window with the count of those left out', () => {
    const time = clock();
    const decide = createRepeatLimiter(10_000, time.now);
    expect(decide('db down')).toEqual({ write: true, suppressed: 0 });
    for (let i = 0; i < 500; i++) {
      time.advance(10);
      expect(decide('db down').write).toBe(false);
    }
    time.advance(10_000);
    expect(decide('db down')).toEqual({ write: true, suppressed: 500 });
    time.advance(1);
    expect(decide('db down')).toEqual({ write: false, suppressed: 1 });
  });

  it('keeps each kind apart: a new kind of line is written at once', () => {
    const time = clock();
    const decide = createRepeatLimiter(10_000, time.now);
    expect(decide('a').write).toBe(true);
    expect(decide('a').write).toBe(false);
    expect(decide('b')).toEqual({ write: true, suppressed: 0 });
  });

  it('remembers a bounded number of kinds, forgetting the stalest first', () => {
    const time = clock();
    const decide = createRepeatLimiter(10_000, time.now);
    decide('oldest');
    for (let i = 0; i < 1_000; i++) decide(`kind ${i}`);
    // 'oldest' was dropped to stay within the bound, so it counts as new again.
    expect(decide('oldest').write).toBe(true);
    expect(decide('kind 999').write).toBe(false);
  });
});
