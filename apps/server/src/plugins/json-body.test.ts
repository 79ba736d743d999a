import { describe, expect, it } from 'vitest';
import { jsonDepth } from './json-body.ts';

describe('jsonDepth', () => {
  it.each([
    ['1', 0],
    ['{}', 1],
    ['{"a":[1,{"b":[]}]}', 4],
    ['[[[]]]', 3],
    ['"[[[[[["', 0],
    ['{"a":"\\"[[[["}', 1],
    ['{"a":"\\\\","b":[[]]}', 3],
  ])('%s is %i deep', (text, depth) => {
    expect(jsonDepth(text)).toBe(depth);
  });

  it('counts 49,000 nested brackets without recursion', () => {
    expect(jsonDepth('['.repeat(49_000))).toBe(49_000);
  });
});
