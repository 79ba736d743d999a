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
import { EXPORT_LIMIT_ERRORS } from '../../plugins/rate-limits/export-limits.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { parseInput } from '../../lib/validate.ts';
import { requireUser, requireVerifiedEmail } from '../accounts/session.ts';
import { exportCatalogCsv } from './catalog-csv.ts';
import { createImport, errorsCsv, getImport, listChanges, listImports, startApply, undoImport, type SellerContext } from './catalog-import.service.ts';
import { CatalogJobKicker } from './catalog-jobs.ts';
import { processClaimant } from '../../lib/lease.ts';

const tags = ['catalog'];
export const IMPORT_FILE_FIELD = 'file';
const maxMb = CATALOG_IMPORT_LIMITS.maxBytes / 1024 / 1024;
const idParams = z.object({ id: z.string().describe('The import id') });
type IdParams = { Params: { id: string } };

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
  const jobs = ctx.config.processRole === 'web' ? null : new CatalogJobKicker(ctx.db, ctx.clock, app.log, claimant);
  app.addHook('onClose', async () => {
    await jobs?.idle();
  });
  const seller = async (request: FastifyRequest): Promise<SellerContext> => ({ db: ctx.db, user: await requireUser(ctx.auth, request), clock: ctx.clock });
  // A malformed id names no import, for anyone: the same 404 before the session is read (`/api/catalog-imports/.` included).
  const sellerOfJob = async (request: FastifyRequest<IdParams>): Promise<SellerContext> => {
    if (!productIdSchema.safeParse(request.params.id).success) throw notFound('This import does not exist.');
    return seller(request);
  };

  app.get(
    '/api/my/catalog.csv',
    routeContract({ summary: 'Your whole catalog as CSV (docs/product/catalog-csv.md)', tags, signedIn: true, response: {}, download: 'attachment', errors: EXPORT_LIMIT_ERRORS }),
    async (request, reply) => {
      const { user } = await seller(request);
      return sendCsv(reply, 'catalog.csv', exportCatalogCsv(ctx.reads.dbFor(request), user.id));
    },
  );

  app.get('/api/catalog-imports', routeContract({ summary: `Your last ${CATALOG_IMPORT_LIMITS.historyMax} catalog imports, newest first`, tags, signedIn: true, response: { 200: catalogImportListSchema } }), async (request) =>
    listImports(await seller(request)),
  );

  app.get<IdParams>(
    '/api/catalog-imports/:id',
    routeContract({ summary: 'One of your catalog imports: status, progress, counts and the first errors', tags, signedIn: true, params: idParams, response: { 200: catalogImportSchema } }),
    async (request) => getImport(await sellerOfJob(request), request.params.id),
  );

  app.get<IdParams>(
    '/api/catalog-imports/:id/errors.csv',
    routeContract({ summary: 'Every invalid row of an import with its reasons, as CSV', tags, signedIn: true, params: idParams, response: {}, download: 'attachment', errors: EXPORT_LIMIT_ERRORS }),
    async (request, reply) => {
      return sendCsv(reply, 'catalog-errors.csv', await errorsCsv(await sellerOfJob(request), request.params.id));
    },
  );

  app.get<IdParams>(
    '/api/catalog-imports/:id/changes',
    routeContract({
      summary: 'The rows an import creates or updates, old → new, one page by row',
      tags,
      signedIn: true,
      params: idParams,
      querystring: catalogChangesQuerySchema,
      response: { 200: catalogChangesSchema },
    }),
    async (request, reply) => {
      const query = parseInput(catalogChangesQuerySchema, request.query);
      const page = await listChanges(await sellerOfJob(request), request.params.id, query);
      return sendPage(reply, `/api/catalog-imports/${request.params.id.toLowerCase()}/changes`, { limit: query.limit }, page);
    },
  );

  app.post<IdParams>(
    '/api/catalog-imports/:id/apply',
    routeContract({
      summary: 'Write the valid rows of a ready import (202; poll the import for progress)',
      tags,
      signedIn: true,
      params: idParams,
      response: { 202: catalogImportSchema },
      errors: { 409: 'The import is not ready, or another import of yours is running' },
    }),
    async (request, reply) => {
      const answer = await startApply(await sellerOfJob(request), request.params.id);
      jobs?.kick(answer.id);
      return reply.status(202).send(answer);
    },
  );

  app.post<IdParams>(
    '/api/catalog-imports/:id/undo',
    routeContract({
      summary: 'Undo your latest applied import (within 24 hours), all or nothing',
      tags,
      signedIn: true,
      params: idParams,
      response: { 200: catalogUndoResultSchema },
      errors: { 409: 'Not applied, not your latest applied import, or applied more than 24 hours ago' },
    }),
    async (request) => undoImport(await sellerOfJob(request), request.params.id),
  );

  // Multipart only here and on the permit upload: every other route keeps taking JSON alone.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: CATALOG_IMPORT_LIMITS.maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 16 },
      throwFileSizeLimit: true,
    });
    scope.post(
      '/api/catalog-imports',
      {
        ...routeContract({
          summary: `Upload a catalog CSV (at most ${maxMb} MB and ${CATALOG_IMPORT_LIMITS.maxRows.toLocaleString('en-US')} rows); it is checked in the background`,
          tags,
          signedIn: true,
          multipartFile: IMPORT_FILE_FIELD,
          response: { 202: catalogImportCreatedSchema },
          errors: {
            400: 'The multipart body was cut off or malformed',
            409: 'Another import of yours is still running',
            413: `The file is larger than ${maxMb} MB`,
            415: 'Not multipart/form-data',
            422: 'No file, or an empty one',
          },
        }),
        onRequest: refuseDeclaredOversize(IMPORT_UPLOAD),
      },
      async (request, reply) => {
        const ctxSeller = await seller(request);
        if (ctx.config.requireVerifiedSellers) requireVerifiedEmail(ctxSeller.user, 'import products');
        const upload = await openSingleFile(request, IMPORT_UPLOAD);
        const created = await createImport(ctxSeller, claimant, { pieces: upload.pieces, fileName: upload.filename });
        jobs?.kick(created.id);
        return reply.status(202).send(created);
      },
    );
  });
}
