import { describe, expect, it } from 'vitest';
import { splitPastedRows, validCartQuantity } from './cart.ts';

describe('splitPastedRows', () => {
  it('reads SKU and quantity split by spaces, tabs, commas or semicolons, numbering rows by their line', () => {
    expect(splitPastedRows('A-1 10\r\n\nB-2\t5\nC-3,7 \n  D-4 ; 8\n')).toEqual([
      { row: 1, sku: 'A-1', quantity: '10' },
      { row: 3, sku: 'B-2', quantity: '5' },
      { row: 4, sku: 'C-3', quantity: '7' },
      { row: 5, sku: 'D-4', quantity: '8' },
    ]);
  });

  it('keeps what a malformed row has, for the server to answer', () => {
    expect(splitPastedRows('ONLY\nA 1 2')).toEqual([
      { row: 1, sku: 'ONLY', quantity: '' },
      { row: 2, sku: 'A', quantity: '1 2' },
    ]);
  });
});

describe('validCartQuantity', () => {
  it('rounds up to whole cases and never below the MOQ', () => {
    expect(validCartQuantity(13, 12, 12)).toBe(24);
    expect(validCartQuantity(5, 24, 12)).toBe(24);
    expect(validCartQuantity(0, 1, 1)).toBe(1);
    expect(validCartQuantity(Number.NaN, 10, 5)).toBe(10);
    expect(validCartQuantity(7.9, 1, 1)).toBe(7);
  });

  it('stays within the line bound, in whole cases', () => {
    expect(validCartQuantity(5_000_000, 1, 1)).toBe(1_000_000);
    expect(validCartQuantity(5_000_000, 1, 7)).toBe(999_999);
  });
});
