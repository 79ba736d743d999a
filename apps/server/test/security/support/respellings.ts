/**
 * Other spellings of one request path, as a script (not a browser) can send them. `same` respellings
 * have a canonical twin and must be answered exactly as it is; `refused` ones must be refused (400 or
 * 404 in our error shape) and change nothing. Either way no rule may be skipped.
 */
export interface Respelling {
  label: string;
  kind: 'same' | 'refused';
  url: string;
}

/** Percent-encodes the first letter of a segment: `order` → `%6frder`. */
function encodeFirstLetter(segment: string): string {
  const letter = segment.search(/[a-z]/i);
  if (letter === -1) return segment;
  const hex = segment.charCodeAt(letter).toString(16);
  return `${segment.slice(0, letter)}%${hex}${segment.slice(letter + 1)}`;
}

/** Segments already holding an encoding (an email's `%40`) are left alone: their hex is not a word. */
function encodeEveryLetter(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment.includes('%') ? segment : segment.replace(/[a-z]/gi, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)))
    .join('/');
}

export function respell(url: string): Respelling[] {
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  const query = at === -1 ? '' : url.slice(at);
  const [, first = '', ...rest] = path.split('/');
  const tail = rest.join('/');
  const second = rest[0] ?? '';
  const afterSecond = rest.slice(1).join('/');
  // A route that itself ends in a slash (/api/docs/) has a canonical twin for these two: `//` and
  // a trailing dot segment both resolve back onto it.
  const trailing = path.endsWith('/') ? 'same' : 'refused';
  const withSecond = (s: string) => `/${first}/${[s, afterSecond].filter((p) => p !== '').join('/')}`;
  return [
    { label: 'a dot segment', kind: 'same', url: `/${first}/./${tail}${query}` },
    { label: 'a parent segment', kind: 'same', url: `/${first}/x/../${tail}${query}` },
    { label: 'an encoded dot segment', kind: 'same', url: `/${first}/%2e/${tail}${query}` },
    { label: 'an encoded letter in the first segment', kind: 'same', url: `/${encodeFirstLetter(first)}/${tail}${query}` },
    { label: "an encoded letter in the route's own word", kind: 'same', url: `${withSecond(encodeFirstLetter(second))}${query}` },
    { label: 'every letter encoded', kind: 'same', url: `${encodeEveryLetter(path)}${query}` },
    { label: 'a double slash', kind: 'same', url: `/${first}//${tail}${query}` },
    { label: 'a trailing /.', kind: trailing, url: `${path}/.${query}` },
    { label: 'a trailing slash', kind: trailing, url: `${path}/${query}` },
    { label: 'a backslash', kind: 'refused', url: `/${first}\\${tail}${query}` },
    { label: 'an encoded slash', kind: 'refused', url: `/${first}%2F${tail}${query}` },
    { label: 'an encoded backslash', kind: 'refused', url: `/${first}%5c${tail}${query}` },
  ];
}
