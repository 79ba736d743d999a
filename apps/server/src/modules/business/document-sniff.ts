import type { DocumentType } from '@bulkcart/contracts';
import { AppError } from '../../lib/app-error.ts';

/**
 * A permit's type, decided by its bytes alone: never its name or the declared Content-Type, which the
 * sender writes. Only four formats pass, each checked at both ends (a truncated file is refused too),
 * and the signature must be the very first bytes: a PDF behind an HTML prefix is HTML to a browser.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IEND = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

export const DOCUMENT_REFUSALS = {
  empty: 'The file is empty. Upload your permit or license as a PDF, PNG, JPEG or WebP file.',
  markup: 'This file is HTML or SVG, whatever its name says. Upload your permit or license as a PDF, PNG, JPEG or WebP file.',
  unknown: 'This file is not a PDF, PNG, JPEG or WebP file (its contents were checked, not its name). Upload your permit or license in one of those formats.',
  truncated: (kind: string) => `This ${kind} file is incomplete (it ends early). Upload the whole file again.`,
} as const;

const unsupported = (message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', message, { title: 'File type not accepted' });

function isPng(bytes: Buffer): boolean {
  return bytes.subarray(0, 8).equals(PNG_SIGNATURE);
}

/** After the signature comes the 13-byte IHDR chunk, and the file ends with the IEND chunk. */
function isWholePng(bytes: Buffer): boolean {
  return (
    bytes.length >= 8 + 25 + 12 &&
    bytes.readUInt32BE(8) === 13 &&
    bytes.toString('latin1', 12, 16) === 'IHDR' &&
    bytes.subarray(bytes.length - 12).equals(PNG_IEND)
  );
}

function isJpeg(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** The end-of-image marker, allowing the few padding bytes some cameras append. */
function isWholeJpeg(bytes: Buffer): boolean {
  const tail = bytes.subarray(Math.max(0, bytes.length - 32));
  return tail.includes(Buffer.from([0xff, 0xd9]));
}

function isWebp(bytes: Buffer): boolean {
  return bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP';
}

/** The RIFF header states the file's length; a shorter file was cut off. */
function isWholeWebp(bytes: Buffer): boolean {
  return bytes.length >= 20 && bytes.readUInt32LE(4) + 8 <= bytes.length;
}

function isPdf(bytes: Buffer): boolean {
  return bytes.toString('latin1', 0, 5) === '%PDF-';
}

/** A PDF's last `%%EOF` sits in its final bytes (trailing newlines and padding allowed). */
function isWholePdf(bytes: Buffer): boolean {
  return bytes.toString('latin1', Math.max(0, bytes.length - 1024)).includes('%%EOF');
}

/** Text that starts like markup (after a BOM and white space): HTML, SVG or XML. */
function looksLikeMarkup(bytes: Buffer): boolean {
  const head = bytes
    .toString('utf8', 0, 512)
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<');
}

/** The file's real type, or a 415 saying why it is refused. */
export function sniffDocument(bytes: Buffer): DocumentType {
  if (bytes.length === 0) throw unsupported(DOCUMENT_REFUSALS.empty);
  if (isPdf(bytes)) {
    if (!isWholePdf(bytes)) throw unsupported(DOCUMENT_REFUSALS.truncated('PDF'));
    return 'application/pdf';
  }
  if (isPng(bytes)) {
    if (!isWholePng(bytes)) throw unsupported(DOCUMENT_REFUSALS.truncated('PNG'));
    return 'image/png';
  }
  if (isJpeg(bytes)) {
    if (!isWholeJpeg(bytes)) throw unsupported(DOCUMENT_REFUSALS.truncated('JPEG'));
    return 'image/jpeg';
  }
  if (isWebp(bytes)) {
    if (!isWholeWebp(bytes)) throw unsupported(DOCUMENT_REFUSALS.truncated('WebP'));
    return 'image/webp';
  }
  if (looksLikeMarkup(bytes)) throw unsupported(DOCUMENT_REFUSALS.markup);
  throw unsupported(DOCUMENT_REFUSALS.unknown);
}

const EXTENSIONS: Record<DocumentType, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * The stored name: the sender's base name cut to safe characters, with the extension of the sniffed
 * type (a `.html` name never comes back out, whatever the file was called).
 */
export function storedFileName(sent: string | undefined, type: DocumentType): string {
  const base = (sent ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9 _-]+/g, '_')
    .trim()
    .slice(0, 80);
  return `${base || 'permit'}.${EXTENSIONS[type]}`;
}
