import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { businessProfileInputSchema, businessProfileSchema, DOCUMENT_MAX_BYTES } from '@bulkcart/contracts';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import { AppError } from '../../lib/app-error.ts';
import { readSingleFile, refuseDeclaredOversize, type SingleFileUpload } from '../../lib/multipart-upload.ts';
import { countAttempts } from '../../plugins/rate-limits/database-counters.ts';
import { HOUR_MS, refuse } from '../../plugins/rate-limits/refusal.ts';
import { defineRoute } from '../../lib/define-route.ts';
import { requireVerifiedEmail } from '../accounts/session.ts';
import { getBusinessProfile, readDocument, saveBusinessProfile, storeBusinessDocument } from './business.service.ts';
import { sendDocument } from './document-reply.ts';
import { sniffDocument, storedFileName } from './document-sniff.ts';

const tags = ['business'];
export const DOCUMENT_FIELD = 'document';
/** Uploads one account may start in an hour (RATE_LIMIT): a buyer fixing a scan needs a few. */
export const DOCUMENT_UPLOADS_PER_HOUR = 10;
/**
 * Uploads one process reads at once. Each holds up to 5 MB in memory until it is checked and
 * stored, so a burst from many accounts cannot take the process's memory or its database pool.
 */
export const DOCUMENT_UPLOADS_AT_ONCE = 4;

/** Uploads being read now, per app (one per process; tests build several). */
const uploadsInFlight = new WeakMap<FastifyInstance, { count: number }>();

/** How many uploads this app is reading now: what a test waits on before it sends one more. */
export function documentUploadsInFlight(app: FastifyInstance): number {
  return uploadsInFlight.get(app)?.count ?? 0;
}

const busy = () =>
  new AppError('UNAVAILABLE', 'Too many uploads are in progress right now. Try again in a few seconds.', { title: 'Busy', headers: { 'retry-after': '5' } });

const DOCUMENT_UPLOAD: SingleFileUpload = {
  field: DOCUMENT_FIELD,
  maxBytes: DOCUMENT_MAX_BYTES,
  tooLarge: () => new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than 5 MB. Upload a smaller scan or photo of the permit.', { title: 'File too large' }),
  noFile: () =>
    new AppError('VALIDATION', `Choose a file to upload (one file field named "${DOCUMENT_FIELD}").`, {
      fieldErrors: { [DOCUMENT_FIELD]: ['Choose a file to upload'] },
    }),
};

/** The buyer's own business profile and permit (docs/decisions/014-business-verification.md). */
export async function registerBusinessRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const inFlight = { count: 0 };
  uploadsInFlight.set(app, inFlight);

  /** Per account, counted in the database so every process shares it; every attempt counts, refused files too. */
  async function countUpload(userId: string): Promise<void> {
    if (!ctx.config.rateLimit) return;
    const [counted] = await countAttempts(ctx.db, [{ key: `document-uploads:user:${userId}`, limit: DOCUMENT_UPLOADS_PER_HOUR, windowMs: HOUR_MS }]);
    if (counted && counted.count > DOCUMENT_UPLOADS_PER_HOUR) throw refuse(counted.waitMs, 'document uploads from this account');
  }

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/business',
    auth: 'signedIn',
    summary: 'Your business profile and its verification status',
    tags,
    response: { 200: businessProfileSchema },
    handler: ({ user }) => getBusinessProfile(ctx.db, user.id),
  });

  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/api/business',
    auth: 'signedIn',
    summary: 'Save your business profile',
    tags,
    body: businessProfileInputSchema,
    response: { 200: businessProfileSchema },
    beforeInput: ({ user }) => requireVerifiedEmail(user, 'submit your business for verification'),
    handler: ({ user, body }) => saveBusinessProfile(ctx.db, user.id, body),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/business/document',
    auth: 'signedIn',
    summary: 'Download your uploaded permit',
    tags,
    response: {},
    download: 'attachment',
    handler: async ({ user, reply }) => sendDocument(reply, await readDocument(ctx.db, eq(businessProfiles.userId, user.id))),
  });

  // Multipart only here: every other route keeps taking JSON alone.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 16 },
      throwFileSizeLimit: true,
    });
    defineRoute(scope, ctx, {
      method: 'POST',
      url: '/api/business/document',
      auth: 'signedIn',
      summary: 'Upload your permit or license (PDF, PNG, JPEG or WebP, at most 5 MB); submits the profile for review',
      tags,
      multipartFile: DOCUMENT_FIELD,
      response: { 200: businessProfileSchema },
      errors: {
        400: 'The multipart body was cut off or malformed',
        409: 'Save your business details (PUT /api/business) before the document',
        413: 'The file is larger than 5 MB',
        415: 'Not multipart/form-data, or the file is not a PDF, PNG, JPEG or WebP by its contents',
        429: `More than ${DOCUMENT_UPLOADS_PER_HOUR} uploads from this account in an hour (Retry-After says when to try again)`,
        503: `${DOCUMENT_UPLOADS_AT_ONCE} uploads are being read by this server already (Retry-After: 5)`,
      },
      onRequest: refuseDeclaredOversize(DOCUMENT_UPLOAD),
      beforeInput: ({ user }) => requireVerifiedEmail(user, 'submit your business for verification'),
      handler: async ({ user, request }) => {
        if (inFlight.count >= DOCUMENT_UPLOADS_AT_ONCE) throw busy();
        inFlight.count += 1;
        try {
          await countUpload(user.id);
          const upload = await readSingleFile(request, DOCUMENT_UPLOAD);
          const type = sniffDocument(upload.bytes);
          return await storeBusinessDocument(ctx.db, user.id, { bytes: upload.bytes, type, name: storedFileName(upload.filename, type) });
        } finally {
          inFlight.count -= 1;
        }
      },
    });
  });
}
