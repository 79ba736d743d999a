import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '@bulkcart/contracts/categories';

describe('CATEGORIES', () => {
  it('are the six categories of docs/product/rules.md, in its order (the pages and tests read them from here)', () => {
    const rules = readFileSync(new URL('../../../../docs/product/rules.md', import.meta.url), 'utf8');
    const line = /^- Categories: ([^]*?)\.\n/m.exec(rules)?.[1];
    expect(line, 'the "- Categories:" line of docs/product/rules.md').toBeDefined();
    const documented = line!.replace(/\s+/g, ' ').split('; ');
    expect(CATEGORIES).toEqual(documented);
  });
});
