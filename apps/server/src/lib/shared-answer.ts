import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The serialised answer to a public catalog read, built once per batch of requests (turn-batch.ts)
 * and sent to each of them as the same bytes: one serialisation, one hash, and at most one
 * compression per encoding, however many requests shared the read.
 */
export interface SharedAnswer {
  body: Buffer;
  etag: string;
  link: string | null;
  encoded: Partial<Record<Encoding, Buffer>>;
}

type Encoding = 'br' | 'gzip';

/** What @fastify/compress (app.ts) would do: nothing under 1 KiB, brotli at quality 4. */
const COMPRESS_THRESHOLD = 1024;
const compressors: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzipSync(body),
};

const answers = new WeakMap<object, SharedAnswer>();

/**
 * The answer for `result`, a value the batch hands to every request that shared it: the first
 * request serialises it (with its route's response schema), the others reuse the bytes.
 */
export function shareAnswer(result: object, serialize: () => string | Buffer | ArrayBuffer, linkOf: () => string | null = () => null): SharedAnswer {
  const known = answers.get(result);
  if (known) return known;
  const link = linkOf();
  const serialized = serialize();
  const body = typeof serialized === 'string' ? Buffer.from(serialized, 'utf8') : Buffer.isBuffer(serialized) ? serialized : Buffer.from(serialized);
  // Weak: the same JSON is sent br, gzip or plain, and all are one representation.
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  const answer: SharedAnswer = { body, etag, link, encoded: {} };
  answers.set(result, answer);
  return answer;
}

/** br over gzip, either only when the client accepts it (a `q=0` refuses). */
function pickEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.slice(2);
  // Weak comparison (RFC 9110 §13.1.2): W/"x" and "x" name the same representation.
  return (
    header === '*' ||
    header.split(',').some((tag) => {
      const t = tag.trim();
      return t === etag || t === bare || t.slice(2) === bare;
    })
  );
}

/**
 * Public catalog data, the same for everyone: a browser may keep it but must ask again each time
 * (`no-cache`), and the ETag turns an unchanged answer into a bodiless 304.
 */
export function sendSharedAnswer(request: FastifyRequest, reply: FastifyReply, answer: SharedAnswer): FastifyReply {
  reply.header('cache-control', 'no-cache');
  reply.header('etag', answer.etag);
  if (answer.link) reply.header('link', answer.link);
  const compressible = answer.body.length >= COMPRESS_THRESHOLD;
  // A 304 carries the Vary its 200 would have (RFC 9110 §15.4.5).
  if (compressible) reply.header('vary', 'accept-encoding');
  if (ifNoneMatchHits(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();

  reply.type('application/json; charset=utf-8');
  if (!compressible) return reply.send(answer.body);
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(answer.body);
  const encoded = (answer.encoded[encoding] ??= compressors[encoding](answer.body));
  // A content-encoding already set tells @fastify/compress to leave the bytes alone.
  reply.header('content-encoding', encoding);
  return reply.send(encoded);
}
