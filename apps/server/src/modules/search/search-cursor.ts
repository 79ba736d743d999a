import type { SearchSort } from '@bulkcart/contracts';
import { invalidCursor } from '../../lib/pagination.ts';

/**
 * A search page ends at a row's sort key and `seq` (the tie-break), and the cursor carries both with
 * the sort it belongs to: a cursor of one sort handed to another would skip or repeat rows, so it is
 * refused. Opaque base64url, like the catalog's cursors (lib/pagination.ts).
 */
export interface SearchCursor {
  /** The last row's sort key; null for a product without a price or rating (they come last). */
  key: number | null;
  seq: number;
}

const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;
const TEXT_PATTERN = /^([a-z_]{1,12}):(n|-?[0-9]{1,16}):([1-9][0-9]{0,15})$/;

export function encodeSearchCursor(sort: SearchSort, cursor: SearchCursor): string {
  return Buffer.from(`${sort}:${cursor.key === null ? 'n' : String(cursor.key)}:${cursor.seq}`, 'utf8').toString('base64url');
}

/**
 * The keys a sort can write: price in cents, rating and relevance are PostgreSQL integers, and newest
 * sorts by `seq` itself. A key outside them names no row and would reach the database as a value
 * its column cannot compare with (an error, not a page): it is a cursor we did not issue.
 */
const INT4_MAX = 2_147_483_647;
function fitsSort(sort: SearchSort, cursor: SearchCursor): boolean {
  if (sort === 'newest') return cursor.key === cursor.seq;
  return cursor.key === null || (cursor.key >= 0 && cursor.key <= INT4_MAX);
}

/** The position a cursor stands for; null for the first page. Anything we did not issue is a 422. */
export function decodeSearchCursor(sort: SearchSort, cursor: string | undefined): SearchCursor | null {
  if (cursor === undefined) return null;
  if (!CURSOR_PATTERN.test(cursor)) throw invalidCursor();
  const match = TEXT_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || match[1] !== sort) throw invalidCursor();
  const key = match[2] === 'n' ? null : Number(match[2]);
  const seq = Number(match[3]);
  if ((key !== null && !Number.isSafeInteger(key)) || !Number.isSafeInteger(seq)) throw invalidCursor();
  const decoded = { key, seq };
  if (!fitsSort(sort, decoded) || encodeSearchCursor(sort, decoded) !== cursor) throw invalidCursor();
  return decoded;
}
