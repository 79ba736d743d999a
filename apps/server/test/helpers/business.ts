import { deflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { businessProfiles } from '../../src/db/schema/business.ts';
import type { TestEnv } from './test-app.ts';

/** Business verification in tests (docs/decisions/014-business-verification.md). */

export const OPERATOR_EMAIL = 'ops@example.com';

/** A day `days` from today (UTC), as YYYY-MM-DD. */
export function dayFromToday(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function validBusinessBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    legalName: 'Corner Shop Ltd',
    businessType: 'retail_store',
    permitNumber: 'SR-123456',
    permitRegion: 'California',
    permitExpires: dayFromToday(365),
    address: {
      company: 'Corner Shop Ltd',
      line1: '5 Main Street',
      city: 'Oakland',
      region: 'CA',
      postalCode: '94607',
      country: 'US',
      phone: '+1 510 555 0101',
    },
    ...overrides,
  };
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real 1×1 PNG. */
export function tinyPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A minimal well-formed PDF (one empty page), `padTo` bytes long when asked (comments before %%EOF). */
export function tinyPdf(padTo = 0): Buffer {
  const head =
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n';
  const tail = '%%EOF\n';
  const pad = Math.max(0, padTo - head.length - tail.length);
  return Buffer.concat([Buffer.from(head), Buffer.alloc(pad, 0x25), Buffer.from(tail)]);
}

export function tinyJpeg(): Buffer {
  return Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);
}

export function tinyWebp(): Buffer {
  const vp8l = Buffer.from([0x2f, 0x00, 0x00, 0x00, 0x00]);
  const chunk = Buffer.concat([Buffer.from('VP8L'), Buffer.from([vp8l.length, 0, 0, 0]), vp8l, Buffer.alloc(1)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunk.length);
  return Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEBP'), chunk]);
}

/** A multipart/form-data body with one file part. */
export function multipartBody(
  file: Buffer,
  options: { field?: string; filename?: string; type?: string } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----bulkcart${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'document'}"; filename="${options.filename ?? 'permit.pdf'}"\r\nContent-Type: ${options.type ?? 'application/pdf'}\r\n\r\n`,
  );
  const payload = Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Straight into the database: a verified business, its permit expiring on `permitExpires`. */
export async function markVerified(env: Pick<TestEnv, 'db'>, userId: string, permitExpires = dayFromToday(365)): Promise<void> {
  const body = validBusinessBody({ permitExpires }) as typeof businessProfiles.$inferInsert;
  await env
    .db()
    .insert(businessProfiles)
    .values({ ...body, userId, status: 'verified', queueSeq: sql`nextval('business_queue_seq')`, submittedAt: sql`now()`, reviewedAt: sql`now()` })
    .onConflictDoUpdate({ target: businessProfiles.userId, set: { status: 'verified', permitExpires } });
}
