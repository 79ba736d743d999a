import * as z from 'zod/mini';

/**
 * Every list's `cursor` query parameter. The server writes cursors (base64url, in the `Link:
 * rel="next"` header or a `nextCursor` field) and reads back only what it wrote: anything else, of
 * this form or not, is a 422 "Invalid cursor". The pattern is stated for clients; the server's
 * decoders (apps/server/src/lib/pagination.ts, modules/search/search-cursor.ts) hold the rule.
 */
export const CURSOR_PATTERN = '^[A-Za-z0-9_-]{0,80}$';

/** In zod/mini, so the search page's query schema (search-query.ts) carries no classic zod; other schemas wrap it with `z.optional`. */
export const cursorSchema = z.string().register(z.globalRegistry, {
  pattern: CURSOR_PATTERN,
  description:
    'Opaque: copy it from the previous page (the `cursor` of its `Link: rel="next"` URL, or its `nextCursor`). Empty or absent means the first page. A cursor the server did not issue, or one from another sort, is a 422 with `fieldErrors.cursor: ["Invalid cursor"]`.',
});
