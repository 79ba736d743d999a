import { randomUUID } from 'node:crypto';

/**
 * The seller rollup's shard of an order, as its triggers compute it (migrations 0019 and 0023:
 * `hashtext(id::text) & 7`), and order ids chosen to land in a given shard.
 *
 * Why (docs/decisions/034-buy-now-batches.md): each order's triggers lock its (seller, day, shard) row
 * until the statement commits. A statement writing many orders of one seller with random ids locks
 * most of the eight rows, and two such statements wait for each other (or deadlock, taking them in
 * different orders). Buy Now's orders of one product all take that product's shard, so a batch locks
 * one row and the batches of different products mostly lock different ones. Getting this wrong would
 * cost only speed: the shard spreads locks, and readers sum every shard.
 */

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;

/** PostgreSQL's `hash_bytes` (src/common/hashfn.c, Bob Jenkins' lookup3) as on a little-endian machine. */
export function pgHashBytes(bytes: Uint8Array): number {
  let length = bytes.length;
  let a = (0x9e3779b9 + length + 3923095) >>> 0;
  let b = a;
  let c = a;
  const word = (i: number) => (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0;
  let i = 0;
  while (length >= 12) {
    a = (a + word(i)) >>> 0;
    b = (b + word(i + 4)) >>> 0;
    c = (c + word(i + 8)) >>> 0;
    // mix(a, b, c)
    a = (a - c) >>> 0;
    a = (a ^ rotl(c, 4)) >>> 0;
    c = (c + b) >>> 0;
    b = (b - a) >>> 0;
    b = (b ^ rotl(a, 6)) >>> 0;
    a = (a + c) >>> 0;
    c = (c - b) >>> 0;
    c = (c ^ rotl(b, 8)) >>> 0;
    b = (b + a) >>> 0;
    a = (a - c) >>> 0;
    a = (a ^ rotl(c, 16)) >>> 0;
    c = (c + b) >>> 0;
    b = (b - a) >>> 0;
    b = (b ^ rotl(a, 19)) >>> 0;
    a = (a + c) >>> 0;
    c = (c - b) >>> 0;
    c = (c ^ rotl(b, 4)) >>> 0;
    b = (b + a) >>> 0;
    i += 12;
    length -= 12;
  }
  // The last 0–11 bytes; the lowest byte of c is left for the length, as in hashfn.c.
  const byte = (n: number, shift: number) => (bytes[i + n]! << shift) >>> 0;
  if (length >= 11) c = (c + byte(10, 24)) >>> 0;
  if (length >= 10) c = (c + byte(9, 16)) >>> 0;
  if (length >= 9) c = (c + byte(8, 8)) >>> 0;
  if (length >= 8) b = (b + byte(7, 24)) >>> 0;
  if (length >= 7) b = (b + byte(6, 16)) >>> 0;
  if (length >= 6) b = (b + byte(5, 8)) >>> 0;
  if (length >= 5) b = (b + byte(4, 0)) >>> 0;
  if (length >= 4) a = (a + byte(3, 24)) >>> 0;
  if (length >= 3) a = (a + byte(2, 16)) >>> 0;
  if (length >= 2) a = (a + byte(1, 8)) >>> 0;
  if (length >= 1) a = (a + byte(0, 0)) >>> 0;
  // final(a, b, c)
  c = (c ^ b) >>> 0;
  c = (c - rotl(b, 14)) >>> 0;
  a = (a ^ c) >>> 0;
  a = (a - rotl(c, 11)) >>> 0;
  b = (b ^ a) >>> 0;
  b = (b - rotl(a, 25)) >>> 0;
  c = (c ^ b) >>> 0;
  c = (c - rotl(b, 16)) >>> 0;
  a = (a ^ c) >>> 0;
  a = (a - rotl(c, 4)) >>> 0;
  b = (b ^ a) >>> 0;
  b = (b - rotl(a, 14)) >>> 0;
  c = (c ^ b) >>> 0;
  c = (c - rotl(b, 24)) >>> 0;
  return c;
}

/** `hashtext(text)` as PostgreSQL's int4. */
export function pgHashtext(text: string): number {
  return pgHashBytes(new TextEncoder().encode(text)) | 0;
}

/** The rollup shard (0–7) of an order id or of any id: `hashtext(id::text) & 7`. */
export function rollupShardOf(id: string): number {
  return pgHashtext(id.toLowerCase()) & 7;
}

/** A new order id in `shard` (0–7): random UUIDs until one lands there, 8 on average. */
export function orderIdInShard(shard: number): string {
  for (;;) {
    const id = randomUUID();
    if (rollupShardOf(id) === shard) return id;
  }
}
