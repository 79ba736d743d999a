import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

/** Room for the multipart boundaries and part headers around a file of the largest size. */
export const MULTIPART_OVERHEAD = 16 * 1024;

export interface SingleFileUpload {
  /** The one file field's name. */
  field: string;
  maxBytes: number;
  /** The 413 in the route's own words. */
  tooLarge: () => AppError;
  /** The 422 when the body has no such file field. */
  noFile: () => AppError;
}

export function notMultipart(field: string): AppError {
  return new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the file as multipart/form-data with one file field named "${field}".`);
}

/** Refused from the headers alone, before a byte of the body is read. */
export function refuseDeclaredOversize(upload: SingleFileUpload) {
  return async (request: FastifyRequest): Promise<void> => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > upload.maxBytes + MULTIPART_OVERHEAD) throw upload.tooLarge();
  };
}

/**
 * Everything that can go wrong while reading the body is about the body: the limits we set, or a
 * body busboy cannot parse (cut off: "Unexpected end of multipart data"; no boundary, a broken part
 * header, a boundary longer than the standard's 70 characters…). The last are one 400, whatever
 * busboy's words, so a new wording of a malformed body never becomes a 500.
 */
export function mapMultipartError(error: unknown, upload: SingleFileUpload): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return upload.tooLarge();
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('VALIDATION', `Send exactly one file field named "${upload.field}" and nothing else.`);
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_NO_FORM_DATA') return notMultipart(upload.field);
  return new AppError('BAD_REQUEST', 'The upload was cut off or malformed. Try again.', { title: 'Upload cut off or malformed' });
}

/**
 * The one file part as a stream of pieces, to be read as it arrives (memory holds a piece, whatever the
 * file's size). Reading it ends with the limit's 413 once the file passes `maxBytes` (busboy then cuts
 * it short and marks it truncated), and with the 400 of a body cut off or malformed.
 */
export async function openSingleFile(request: FastifyRequest, upload: SingleFileUpload): Promise<{ pieces: AsyncIterable<Buffer>; filename: string }> {
  if (!request.isMultipart()) throw notMultipart(upload.field);
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await request.file();
  } catch (error) {
    throw mapMultipartError(error, upload);
  }
  if (!part || part.fieldname !== upload.field) throw upload.noFile();
  const file = part.file;
  async function* pieces(): AsyncGenerator<Buffer> {
    try {
      for await (const piece of file) {
        if (file.truncated) throw upload.tooLarge();
        yield piece as Buffer;
      }
      if (file.truncated) throw upload.tooLarge();
    } catch (error) {
      throw mapMultipartError(error, upload);
    }
  }
  return { pieces: pieces(), filename: part.filename };
}

/** The one file part, read into memory up to the limit (busboy stops counting at the limit and we answer 413). */
export async function readSingleFile(request: FastifyRequest, upload: SingleFileUpload): Promise<{ bytes: Buffer; filename: string }> {
  if (!request.isMultipart()) throw notMultipart(upload.field);
  try {
    const part = await request.file();
    if (!part || part.fieldname !== upload.field) throw upload.noFile();
    return { bytes: await part.toBuffer(), filename: part.filename };
  } catch (error) {
    throw mapMultipartError(error, upload);
  }
}
