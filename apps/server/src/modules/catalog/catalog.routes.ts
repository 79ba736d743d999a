import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  CATALOG_IMPORT_LIMITS,
  catalogChangesQuerySchema,
  catalogChangesSchema,
  catalogImportCreatedSchema,
  catalogImportListSchema,
  catalogImportSchema,
  catalogUndoResultSchema,
  productIdSchema,
} from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { openSingleFile, refuseDeclaredOversize, type SingleFileUpload } from '../../lib/multipart-upload.ts';
import { sendPage } from '../../lib/pagination.ts';
import { defineRoute } from '../../lib/define-route.ts';
import { requireVerifiedEmail, type SessionUser } from '../accounts/session.ts';
import { exportCatalogCsv } from './catalog-csv.ts';
import { createImport, errorsCsv, getImport, listChanges, listImports, startApply, undoImport, type SellerContext } from './catalog-import.service.ts';
import { CatalogJobKicker } from './catalog-jobs.ts';
import { processClaimant } from '../../lib/lease.ts';

const tags = ['catalog'];
export const IMPORT_FILE_FIELD = 'file';
const maxMb = CATALOG_IMPORT_LIMITS.maxBytes / 1024 / 1024;
const idParams = z.object({ id: z.string().describe('The import id') });

const IMPORT_UPLOAD: SingleFileUpload = {
  field: IMPORT_FILE_FIELD,
  maxBytes: CATALOG_IMPORT_LIMITS.maxBytes,
  tooLarge: () => new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxMb} MB. Split it into smaller files.`, { title: 'File too large' }),
  noFile: () =>
    new AppError('VALIDATION', `Choose a CSV file to upload (one file field named "${IMPORT_FILE_FIELD}").`, {
      fieldErrors: { [IMPORT_FILE_FIELD]: ['Choose a CSV file to upload'] },
    }),
};

/** A CSV download: never cached (it is the seller's own, and changes with every edit). */
function sendCsv(reply: FastifyReply, fileName: string, csv: Readable) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}

/** Catalog export and import (docs/decisions/018-catalog-import.md): every route is the signed-in seller's own. */
export async function registerCatalogRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // A `web` process leaves every job to the workers (docs/deploy.md); the others start an upload's at once.
  const claimant = processClaimant(ctx.config.jobLeaseMs);
  const jobs = ctx.config.processRole === 'web' ? null : new CatalogJobKicker(ctx.db, ctx.clock, app.log, claimant, () => ctx.catalogAnswers.forgetAll());
  app.addHook('onClose', async () => {
    await jobs?.idle();
  });
  const seller = (user: SessionUser): SellerContext => ({ db: ctx.db, user, clock: ctx.clock });
  // A malformed id names no import, for anyone: the same 404 before the session is read (`/api/catalog-imports/.` included).
  const refuseMalformedId = (request: FastifyRequest) => {
    if (!productIdSchema.safeParse((request.params as { id?: unknown }).id).success) throw notFound('This import does not exist.');
  };

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/my/catalog.csv',
    auth: 'signedIn',
    summary: 'Your whole catalog as CSV (docs/product/catalog-csv.md)',
    tags,
    response: {},
    download: 'attachment',
    rateLimit: 'downloads',
    handler: ({ user, request, reply }) => sendCsv(reply, 'catalog.csv', exportCatalogCsv(ctx.reads.dbFor(request), user.id)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/catalog-imports',
    auth: 'signedIn',
    summary: `Your last ${CATALOG_IMPORT_LIMITS.historyMax} catalog imports, newest first`,
    tags,
    response: { 200: catalogImportListSchema },
    handler: ({ user }) => listImports(seller(user)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/catalog-imports/:id',
    auth: 'signedIn',
    summary: 'One of your catalog imports: status, progress, counts and the first errors',
    tags,
    params: idParams,
    response: { 200: catalogImportSchema },
    beforeAuth: refuseMalformedId,
    handler: ({ user, params }) => getImport(seller(user), params.id),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/catalog-imports/:id/errors.csv',
    auth: 'signedIn',
    summary: 'Every invalid row of an import with its reasons, as CSV',
    tags,
    params: idParams,
    response: {},
    download: 'attachment',
    rateLimit: 'downloads',
    beforeAuth: refuseMalformedId,
    handler: async ({ user, params, reply }) => sendCsv(reply, 'catalog-errors.csv', await errorsCsv(seller(user), params.id)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/catalog-imports/:id/changes',
    auth: 'signedIn',
    summary: 'The rows an import creates or updates, old → new, one page by row',
    tags,
    params: idParams,
    querystring: catalogChangesQuerySchema,
    response: { 200: catalogChangesSchema },
    beforeAuth: refuseMalformedId,
    handler: async ({ user, params, query, reply }) => {
      const page = await listChanges(seller(user), params.id, query);
      return sendPage(reply, `/api/catalog-imports/${params.id.toLowerCase()}/changes`, { limit: query.limit }, page);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/catalog-imports/:id/apply',
    auth: 'signedIn',
    summary: 'Write the valid rows of a ready import (202; poll the import for progress)',
    tags,
    params: idParams,
    response: { 202: catalogImportSchema },
    errors: { 409: 'The import is not ready, or another import of yours is running' },
    beforeAuth: refuseMalformedId,
    handler: async ({ user, params, reply }) => {
      const answer = await startApply(seller(user), params.id);
      jobs?.kick(answer.id);
      return reply.status(202).send(answer);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/catalog-imports/:id/undo',
    auth: 'signedIn',
    summary: 'Undo your latest applied import (within 24 hours), all or nothing',
    tags,
    params: idParams,
    response: { 200: catalogUndoResultSchema },
    errors: { 409: 'Not applied, not your latest applied import, or applied more than 24 hours ago' },
    beforeAuth: refuseMalformedId,
    handler: ({ user, params }) => undoImport(seller(user), params.id),
  });

  // Multipart only here and on the permit upload: every other route keeps taking JSON alone.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: CATALOG_IMPORT_LIMITS.maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 16 },
      throwFileSizeLimit: true,
    });
    defineRoute(scope, ctx, {
      method: 'POST',
      url: '/api/catalog-imports',
      auth: 'signedIn',
      summary: `Upload a catalog CSV (at most ${maxMb} MB and ${CATALOG_IMPORT_LIMITS.maxRows.toLocaleString('en-US')} rows); it is checked in the background`,
      tags,
      multipartFile: IMPORT_FILE_FIELD,
      response: { 202: catalogImportCreatedSchema },
      errors: {
        400: 'The multipart body was cut off or malformed',
        409: 'Another import of yours is still running',
        413: `The file is larger than ${maxMb} MB`,
        415: 'Not multipart/form-data',
        422: 'No file, or an empty one',
        503: 'The upload was interrupted on the server (this process lost its hold on the job); nothing was kept, send the file again',
      },
      onRequest: refuseDeclaredOversize(IMPORT_UPLOAD),
      beforeInput: ({ user }) => {
        if (ctx.config.requireVerifiedSellers) requireVerifiedEmail(user, 'import products');
      },
      handler: async ({ user, request, reply }) => {
        const upload = await openSingleFile(request, IMPORT_UPLOAD);
        const created = await createImport(seller(user), claimant, { pieces: upload.pieces, fileName: upload.filename });
        jobs?.kick(created.id);
        return reply.status(202).send(created);
      },
    });
  });
}
