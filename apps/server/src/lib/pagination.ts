import type { FastifyReply } from 'fastify';
import { AppError } from './app-error.ts';

/**
 * Keyset pagination on a table's `seq` column (newest first). The cursor is the `seq` of the last row
 * of a page, as opaque base64url: clients pass it back untouched, and the next page is
 * `WHERE seq < cursor ORDER BY seq DESC`, so rows added or removed meanwhile never make a row appear
 * twice or go missing, and the query cost does not grow with the page number as OFFSET's does.
 */

const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,24}$/;
const SEQ_PATTERN = /^[1-9][0-9]{0,15}$/;

export function encodeCursor(seq: number): string {
  return Buffer.from(String(seq), 'utf8').toString('base64url');
}

/** The one answer to a cursor the server did not issue (packages/contracts/src/cursor.ts describes it). */
export function invalidCursor(): AppError {
  return new AppError('VALIDATION', 'The cursor is not valid. Start again from the first page.', {
    title: 'Invalid cursor',
    fieldErrors: { cursor: ['Invalid cursor'] },
  });
}

/** The `seq` a cursor stands for; `null` for the first page. Anything we did not issue is a 422. */
export function decodeCursor(cursor: string | undefined): number | null {
  if (cursor === undefined || cursor === '') return null;
  if (!CURSOR_PATTERN.test(cursor)) throw invalidCursor();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!SEQ_PATTERN.test(text)) throw invalidCursor();
  const seq = Number(text);
  // Node's base64url decoder forgives stray bits; only the canonical spelling of a seq is ours.
  if (!Number.isSafeInteger(seq) || encodeCursor(seq) !== cursor) throw invalidCursor();
  return seq;
}

export interface Page<T> {
  items: T[];
  /** Cursor of the page after this one; `null` on the last page. */
  nextCursor: string | null;
}

/**
 * Cuts a result fetched with `LIMIT limit + 1` down to one page: the extra row only tells that a next
 * page exists, which saves the client a final empty request.
 */
export function takePage<T extends { seq: number }>(rows: T[], limit: number): Page<T> {
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: last ? encodeCursor(last.seq) : null };
}

/**
 * `Link` header value announcing the next page (RFC 8288). `path` is built by the caller from known
 * pieces (never echoed from the request line) and `params` are the validated filters to keep.
 */
export function buildNextLink(path: string, params: Record<string, string | number | undefined>, cursor: string): string {
  const search = new URLSearchParams();
  if (params.limit !== undefined) search.set('limit', String(params.limit));
  search.set('cursor', cursor);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && key !== 'cursor' && key !== 'limit') search.set(key, String(value));
  }
  return `<${path}?${search.toString()}>; rel="next"`;
}

type LinkParams = Record<string, string | number | undefined>;

/** The `Link` header announcing the page after `page`, keeping the filters in `params`; null on the last page. */
export function nextPageLink(path: string, params: LinkParams, page: Page<unknown>): string | null {
  return page.nextCursor ? buildNextLink(path, params, page.nextCursor) : null;
}

/**
 * Every list answer: one page as a bare array (the shape the original app's clients read) with the
 * next page announced in `Link`, so a client that ignores paging still gets a valid first page.
 */
export function sendPage<T>(reply: FastifyReply, path: string, params: LinkParams, page: Page<T>): T[] {
  const link = nextPageLink(path, params, page);
  if (link) reply.header('link', link);
  return page.items;
}
