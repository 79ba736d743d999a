import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { businessProfileInputSchema, businessProfileSchema, DOCUMENT_MAX_BYTES } from '@bulkcart/contracts';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import { AppError } from '../../lib/app-error.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { parseInput } from '../../lib/validate.ts';
import { requireUser, requireVerifiedEmail } from '../accounts/session.ts';
import { getBusinessProfile, readDocument, saveBusinessProfile, storeBusinessDocument } from './business.service.ts';
import { sendDocument } from './document-reply.ts';
import { sniffDocument, storedFileName } from './document-sniff.ts';

const tags = ['business'];
export const DOCUMENT_FIELD = 'document';
/** Room for the multipart boundaries and part headers around a file of the largest size. */
const MULTIPART_OVERHEAD = 16 * 1024;

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than 5 MB. Upload a smaller scan or photo of the permit.', { title: 'File too large' });
const notMultipart = () =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the file as multipart/form-data with one file field named "${DOCUMENT_FIELD}".`);
const noFile = () =>
  new AppError('VALIDATION', `Choose a file to upload (one file field named "${DOCUMENT_FIELD}").`, { fieldErrors: { [DOCUMENT_FIELD]: ['Choose a file to upload'] } });

/** Refused from the headers alone, before a byte of the body is read. */
async function refuseDeclaredOversize(request: FastifyRequest): Promise<void> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > DOCUMENT_MAX_BYTES + MULTIPART_OVERHEAD) throw tooLarge();
}

/** The one file part, read into memory up to the limit (busboy stops counting at 5 MB and we answer 413). */
async function readUpload(request: FastifyRequest): Promise<{ bytes: Buffer; filename: string }> {
  if (!request.isMultipart()) throw notMultipart();
  let part;
  try {
    part = await request.file();
  } catch (error) {
    throw mapMultipartError(error);
  }
  if (!part || part.fieldname !== DOCUMENT_FIELD) throw noFile();
  try {
    const bytes = await part.toBuffer();
    return { bytes, filename: part.filename };
  } catch (error) {
    throw mapMultipartError(error);
  }
}

function mapMultipartError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('VALIDATION', `Send exactly one file field named "${DOCUMENT_FIELD}" and nothing else.`);
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_NO_FORM_DATA') return notMultipart();
  if (error instanceof Error && /Unexpected end of form|Malformed part header|Multipart: Boundary not found/i.test(error.message)) {
    return new AppError('BAD_REQUEST', 'The upload was cut off or malformed. Try again.');
  }
  return error;
}

/** The buyer's own business profile and permit (docs/decisions/014-business-verification.md). */
export async function registerBusinessRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(
    '/api/business',
    routeContract({ summary: 'Your business profile and its verification status', tags, signedIn: true, response: { 200: businessProfileSchema } }),
    async (request) => {
      const user = await requireUser(ctx.auth, request);
      return getBusinessProfile(ctx.db, user.id);
    },
  );

  app.put(
    '/api/business',
    routeContract({ summary: 'Save your business profile', tags, signedIn: true, body: businessProfileInputSchema, response: { 200: businessProfileSchema } }),
    async (request) => {
      const user = await requireUser(ctx.auth, request);
      requireVerifiedEmail(user, 'submit your business for verification');
      const input = parseInput(businessProfileInputSchema, request.body);
      return saveBusinessProfile(ctx.db, user.id, input);
    },
  );

  app.get(
    '/api/business/document',
    routeContract({ summary: 'Download your uploaded permit', tags, signedIn: true, response: {}, download: true }),
    async (request, reply) => {
      const user = await requireUser(ctx.auth, request);
      return sendDocument(reply, await readDocument(ctx.db, eq(businessProfiles.userId, user.id)));
    },
  );

  // Multipart only here: every other route keeps taking JSON alone.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 16 },
      throwFileSizeLimit: true,
    });
    scope.post(
      '/api/business/document',
      {
        ...routeContract({
          summary: 'Upload your permit or license (PDF, PNG, JPEG or WebP, at most 5 MB); submits the profile for review',
          tags,
          signedIn: true,
          multipartFile: DOCUMENT_FIELD,
          response: { 200: businessProfileSchema },
        }),
        onRequest: refuseDeclaredOversize,
      },
      async (request) => {
        const user = await requireUser(ctx.auth, request);
        requireVerifiedEmail(user, 'submit your business for verification');
        const upload = await readUpload(request);
        const type = sniffDocument(upload.bytes);
        return storeBusinessDocument(ctx.db, user.id, { bytes: upload.bytes, type, name: storedFileName(upload.filename, type) });
      },
    );
  });
}
