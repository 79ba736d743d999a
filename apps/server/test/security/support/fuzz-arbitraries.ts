import { respell, type Respelling } from './respellings.ts';
import fc from 'fast-check';
import { CATEGORIES } from '@bulkcart/contracts';

/**
 * What strangers and broken clients send: wrong types, missing and extra fields, huge, negative and
 * fractional numbers, unicode and control characters, very long strings, prototype keys, broken JSON.
 */

const SPECIAL_STRINGS = [
  '',
  ' ',
  '   ',
  '\u0000',
  'abc\u0000def',
  '\r\n',
  '\t',
  '\u202eevil',
  '\uFEFFbom',
  '\ud800',
  '\udfff',
  '😀',
  '𝕏𝕐',
  'e\u0301',
  'ﷺ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  "'; DROP TABLE products; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '../../etc/passwd',
  '%00',
  '%2e%2e%2f',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '0x10',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
  'https://cdn.example.com/a.webp',
  '/images/products/a.webp',
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  ...CATEGORIES,
];

const longString = fc
  .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }), fc.integer({ min: 200, max: 12_000 }))
  .map(([unit, times]) => unit.repeat(times));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: longString },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -2_000, max: 2_000 }) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.maxSafeInteger() },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      0,
      -0,
      1,
      -1,
      0.5,
      1.5,
      10.000001,
      2 ** 31 - 1,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53,
      2 ** 53 + 2,
      1e21,
      1e308,
      -1e308,
      Number.MIN_VALUE,
      999_999_999,
      1_000_000_000,
      1_000_000_001,
      1_000_001,
      100_000_000,
    ),
  },
);

const leafValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 4, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(leafValue, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), leafValue, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Keys a client should never be able to smuggle in, plus arbitrary ones. */
export const extraKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'useremail',
    'updatedby',
    'ownerId',
    'owner_id',
    '_id',
    'id',
    'seq',
    'priceCents',
    'unitPrice',
    'buyerEmail',
    'cancelledAt',
    'admin',
    'role',
  ),
  fc.string({ maxLength: 12 }),
);

export interface BodyMutation {
  replace: Array<[string, unknown]>;
  drop: string[];
  extra: Array<[string, unknown]>;
  shape: 'object' | 'array' | 'scalar' | 'empty';
  scalar: unknown;
}

/** A valid body with some fields replaced, some removed and some added; now and then not an object at all. */
const INTACT: BodyMutation = { replace: [], drop: [], extra: [], shape: 'object', scalar: null };

export interface MutationOptions {
  /** How often the valid body goes out unchanged (1 = as often as a mutated one). */
  intactWeight?: number;
  /** How often each kind of change (replace, drop, add) is applied, against 1 for leaving it out. */
  changeWeight?: number;
}

/**
 * Endpoints where few mutated bodies would pass validation get a higher `intactWeight`, so enough
 * requests reach the database; sign-in and sign-up get a higher `changeWeight`, because every body
 * that passes costs a password hash and the volume would otherwise take minutes.
 */
export function bodyMutation(fields: readonly string[], { intactWeight = 0, changeWeight = 1 }: MutationOptions = {}): fc.Arbitrary<BodyMutation> {
  const sometimes = <T>(arbitrary: fc.Arbitrary<T[]>) => fc.oneof({ weight: 1, arbitrary: fc.constant<T[]>([]) }, { weight: changeWeight, arbitrary });
  const mutated = fc.record({
    replace: sometimes(fc.array(fc.tuple(fc.constantFrom(...fields), hostileValue), { minLength: 1, maxLength: 3 })),
    drop: sometimes(fc.subarray([...fields], { minLength: 1, maxLength: Math.min(3, fields.length) })),
    extra: sometimes(fc.array(fc.tuple(extraKey, hostileValue), { minLength: 1, maxLength: 3 })),
    shape: fc.constantFrom<BodyMutation['shape']>('object', 'object', 'object', 'object', 'object', 'object', 'object', 'object', 'array', 'scalar', 'empty'),
    scalar: hostileValue,
  });
  return intactWeight > 0 ? fc.oneof({ weight: intactWeight, arbitrary: fc.constant(INTACT) }, { weight: 1, arbitrary: mutated }) : mutated;
}

/** Applies a mutation; entries go through Object.fromEntries so `__proto__` becomes a real own key. */
export function applyMutation(valid: Record<string, unknown>, mutation: BodyMutation): unknown {
  if (mutation.shape === 'empty') return {};
  if (mutation.shape === 'scalar') return mutation.scalar;
  const entries = Object.entries(valid).filter(([key]) => !mutation.drop.includes(key));
  const replaced = new Map(mutation.replace);
  const body = Object.fromEntries([...entries.map(([k, v]): [string, unknown] => [k, replaced.has(k) ? replaced.get(k) : v]), ...mutation.extra]);
  return mutation.shape === 'array' ? [body] : body;
}

/** encodeURIComponent refuses lone surrogates; a client would have replaced them before sending. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

/** Path segments: hostile strings, percent-encoded, plus a few raw forms a router must survive. */
export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileString.filter((s) => s.length > 0).map((s) => encodeSegment(s.slice(0, 3_000))) },
  { weight: 2, arbitrary: fc.tuple(fc.uuid(), fc.boolean()).map(([u, upper]) => (upper ? u.toUpperCase() : u)) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '..', '.', '%2F', '%2e%2e', '%00', '%C0%AF', 'a;b', '%20', '+', '*', '~') },
);

/**
 * Which spelling of a path to send: as written (-1, half the time) or one of respell()'s. app.inject
 * resolves dot segments and backslashes itself, so here those arrive canonical; path-respellings.test.ts
 * sends them over a real socket. Encoded letters, double slashes and encoded slashes arrive as drawn.
 */
export const respellingIndex: fc.Arbitrary<number> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(-1) },
  { weight: 1, arbitrary: fc.nat({ max: respell('/api/x').length - 1 }) },
);

export function respelledOrAsWritten(url: string, at: number): Respelling {
  const respelled = respell(url)[at];
  // A drawn `..` id plus a resolved backslash would climb out of /api before the server sees it (inject
  // resolves it): that tests the web app's fallback, not the API, so such a draw is sent as written.
  if (!respelled || !new URL(respelled.url, 'http://x').pathname.startsWith('/api/')) return { label: 'as written', kind: 'same', url };
  return respelled;
}

/** Header values must be printable ASCII or the client library refuses to send them at all. */
export const hostileHeaderValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,140}$/),
  fc.constantFrom('', ' ', 'a', 'short', '__proto__', 'x'.repeat(129), 'x'.repeat(5_000), 'key with spaces', 'ключ'.replace(/[^\x20-\x7e]/g, '?')),
);

const QUERY_KEYS = ['limit', 'cursor', 'category', 'available'] as const;

/** Query strings with the real keys given hostile values, repeated keys, and keys that are not ours. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) },
        { weight: 1, arbitrary: extraKey },
        { weight: 1, arbitrary: fc.constantFrom('limit[]', 'constructor[prototype][x]', '__proto__[admin]') },
      ),
      fc.oneof(
        { weight: 4, arbitrary: hostileString.map((s) => encodeSegment(s.slice(0, 2_000))) },
        { weight: 3, arbitrary: hostileNumber.map(String) },
        { weight: 1, arbitrary: fc.constantFrom('%', '%zz', 'true', 'false', '', 'MA', 'MTIz', 'AAAA', '-1', '201', '200', '0') },
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeSegment(k)}=${v}`).join('&')}`));

const NON_JSON_TYPES = [
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'application/xml',
  'application/octet-stream',
  'application/ld+json',
  'application/merge-patch+json',
  'application/jsonp',
  'image/png',
];

export interface RawBody {
  body: string;
  contentType: string;
}

/** Bodies written by hand: broken JSON under a JSON type, or anything under a type that is not JSON. */
export function rawBody(validJson: string): fc.Arbitrary<RawBody> {
  const brokenJson = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.nat({ max: Math.max(0, validJson.length - 1) }).map((cut) => validJson.slice(0, cut)),
    fc
      .tuple(fc.nat({ max: validJson.length }), fc.constantFrom('"', '{', '}', ',', ':', '\\', '\u0000', ']', "'"))
      .map(([at, ch]) => validJson.slice(0, at) + ch + validJson.slice(at)),
    fc.constantFrom(
      '{',
      '{"a":',
      '{"quantity": 1e400}',
      '{"quantity": -1e400}',
      '{"__proto__": {"admin": true}}',
      '{"constructor": {"prototype": {"admin": true}}}',
      '{"a":1}{"b":2}',
      '{"quantity":1,}',
      "{'quantity':1}",
      'NaN',
      'undefined',
      '"\\ud800"',
      '{"productId":"\\u0000","quantity":1}',
      '\uFEFF{"quantity":1}',
      `${'['.repeat(30_000)}${']'.repeat(30_000)}`,
      `${'{"a":'.repeat(15_000)}1${'}'.repeat(15_000)}`,
    ),
  );
  return fc.oneof(
    { weight: 3, arbitrary: brokenJson.map((body) => ({ body, contentType: 'application/json' })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.oneof(fc.constant(validJson), fc.string({ minLength: 1, maxLength: 60 })), fc.constantFrom(...NON_JSON_TYPES))
        .map(([body, contentType]) => ({ body, contentType })),
    },
  );
}

export function isJsonContentType(contentType: string): boolean {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase() === 'application/json';
}
