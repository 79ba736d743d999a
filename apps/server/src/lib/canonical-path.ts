/**
 * The one spelling of a request path that every rule compares against. The router decodes
 * percent-encodings and better-auth resolves dot segments, so a rule that compared the raw spelling
 * could be walked around (`/%61pi/order`, `/api/auth/./sign-in/email`). Deciding the path once, before
 * routing, means the router, every hook and better-auth all see the same string.
 */

export type PathVerdict = { canonical: true; path: string } | { canonical: false; reason: string };

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const PERCENT_ENCODED = /%([0-9A-Fa-f]{2})/g;

/**
 * Canonical form: unreserved characters never percent-encoded (RFC 3986 §6.2.2.2), other encodings
 * in upper-case hex, no empty segments (`//`), no dot segments (§5.2.4). A backslash or an encoded
 * slash or backslash has no canonical twin (servers and proxies disagree on whether it separates
 * segments), so such a path is refused rather than guessed at.
 */
export function canonicalisePath(rawPath: string): PathVerdict {
  // `OPTIONS *` and absolute-form targets are not paths; the router answers them as it always has.
  if (!rawPath.startsWith('/')) return { canonical: true, path: rawPath };
  if (rawPath.includes('\\')) return { canonical: false, reason: 'a backslash' };
  let refusal: string | null = null;
  const decoded = rawPath.replace(PERCENT_ENCODED, (_match, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    if (char === '/' || char === '\\') refusal = 'an encoded slash';
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  if (refusal) return { canonical: false, reason: refusal };
  return { canonical: true, path: removeDotSegments(decoded.replace(/\/{2,}/g, '/')) };
}

/** RFC 3986 §5.2.4 on a path without empty segments: `.` goes, `..` takes its parent with it. */
function removeDotSegments(path: string): string {
  const segments = path.split('/').slice(1);
  const kept: string[] = [];
  segments.forEach((segment, index) => {
    const isLast = index === segments.length - 1;
    if (segment !== '.' && segment !== '..') {
      kept.push(segment);
      return;
    }
    if (segment === '..') kept.pop();
    // `/a/b/.` and `/a/b/..` name a directory: they keep their trailing slash.
    if (isLast) kept.push('');
  });
  return `/${kept.join('/')}`;
}

/** Splits a request target into its path and the rest (`?query`), which is left exactly as sent. */
export function splitTarget(url: string): { path: string; rest: string } {
  const at = url.indexOf('?');
  return at === -1 ? { path: url, rest: '' } : { path: url.slice(0, at), rest: url.slice(at) };
}
