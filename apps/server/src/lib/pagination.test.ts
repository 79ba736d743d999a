import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AppError } from './app-error.ts';
import { buildNextLink, decodeCursor, encodeCursor, takePage } from './pagination.ts';

describe('cursor', () => {
  it('decodes what it encodes, for every positive safe integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (seq) => {
        const cursor = encodeCursor(seq);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor)).toBe(seq);
      }),
    );
  });

  it('means the first page when absent or empty', () => {
    expect(decodeCursor(undefined)).toBeNull();
    expect(decodeCursor('')).toBeNull();
  });

  it.each([
    ['garbage', '%%%'],
    ['padding', `${encodeCursor(7)}=`],
    ['not a number', Buffer.from('seven').toString('base64url')],
    ['zero', Buffer.from('0').toString('base64url')],
    ['negative', Buffer.from('-3').toString('base64url')],
    ['leading zero', Buffer.from('07').toString('base64url')],
    ['beyond safe integers', Buffer.from('9007199254740993').toString('base64url')],
    ['too long', 'A'.repeat(100)],
    ['non-canonical spelling', 'MQ'.replace('Q', 'R')],
  ])('refuses %s with a VALIDATION error on the cursor field', (_what, cursor) => {
    let caught: unknown;
    try {
      decodeCursor(cursor);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ code: 'VALIDATION', status: 422, fieldErrors: { cursor: ['Invalid cursor'] } });
  });
});

describe('takePage', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ seq: 100 - i }));

  it('has no next page when the extra row is missing', () => {
    expect(takePage(rows(3), 3)).toEqual({ items: rows(3), nextCursor: null });
    expect(takePage([], 3)).toEqual({ items: [], nextCursor: null });
  });

  it('cuts the extra row and points the cursor at the last row kept', () => {
    const page = takePage(rows(4), 3);
    expect(page.items).toEqual(rows(3));
    expect(decodeCursor(page.nextCursor ?? undefined)).toBe(98);
  });
});

describe('buildNextLink', () => {
  it('keeps limit and the given filters, drops undefined ones, and encodes values', () => {
    const link = buildNextLink('/api/allproduct', { limit: 48, category: 'Home & Kitchen Appliances', available: undefined }, 'MTI');
    expect(link).toBe('</api/allproduct?limit=48&cursor=MTI&category=Home+%26+Kitchen+Appliances>; rel="next"');
    const url = new URL(/<([^>]+)>/.exec(link)?.[1] ?? '', 'http://x');
    expect(url.searchParams.get('category')).toBe('Home & Kitchen Appliances');
    expect(url.searchParams.get('cursor')).toBe('MTI');
  });

  it('replaces a cursor passed among the params', () => {
    expect(buildNextLink('/api/orders/a%40b.c', { limit: 7, cursor: 'old' }, 'new')).toBe('</api/orders/a%40b.c?limit=7&cursor=new>; rel="next"');
  });
});
