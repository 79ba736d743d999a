import type { Readable } from 'node:stream';
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  CATALOG_CSV_COLUMNS,
  CATALOG_IMPORT_LIMITS,
  neutralizeFormula,
  productIdSchema,
  type CatalogChangesQuery,
  type CatalogImport,
  type CatalogImportListItem,
  type CatalogRowChange,
  type CatalogUndoResult,
} from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import { catalogImportRows, catalogImports, products, type CatalogImportRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/error-causes.ts';
import { decodeCursor, takePage, type Page } from '../../lib/pagination.ts';
import type { SessionUser } from '../accounts/session.ts';
import { changedCells, stagedColumns, toCsvStream } from './catalog-csv.ts';
import { ERRORS_CSV_COLUMNS, LeaseLost, storeUpload } from './catalog-jobs.ts';
import { intervalOf, type Claimant } from '../../lib/lease.ts';

export interface SellerContext {
  db: Db;
  user: SessionUser;
  clock: () => Date;
}

const importNotFound = () => notFound('This import does not exist.');
const conflict = (message: string, title: string) => new AppError('CONFLICT', message, { title });
const uploadInterrupted = () =>
  new AppError('UNAVAILABLE', 'The upload was interrupted on the server before the whole file was stored; nothing was imported. Upload the file again.', {
    title: 'Upload interrupted',
    headers: { 'retry-after': '5' },
  });

/** The seller's own job, or 404: another seller's job is answered exactly as one that does not exist. */
async function ownJob(ctx: SellerContext, id: string): Promise<CatalogImportRow> {
  if (!productIdSchema.safeParse(id).success) throw importNotFound();
  const [job] = await ctx.db
    .select()
    .from(catalogImports)
    .where(and(eq(catalogImports.id, id.toLowerCase()), eq(catalogImports.sellerId, ctx.user.id)));
  if (!job) throw importNotFound();
  return job;
}

/** The latest applied import of the seller, which alone may be undone. */
async function latestAppliedId(db: Db, sellerId: string): Promise<string | undefined> {
  const [latest] = await db
    .select({ id: catalogImports.id })
    .from(catalogImports)
    .where(and(eq(catalogImports.sellerId, sellerId), eq(catalogImports.status, 'applied')))
    .orderBy(desc(catalogImports.appliedAt))
    .limit(1);
  return latest?.id;
}

function isWithinUndoWindow(job: CatalogImportRow, now: Date): boolean {
  return job.appliedAt !== null && now.getTime() - job.appliedAt.getTime() <= CATALOG_IMPORT_LIMITS.undoWindowMs;
}

function toListItem(job: CatalogImportRow, canUndo: boolean): CatalogImportListItem {
  const applying = job.status === 'applying' || job.status === 'applied';
  const total = applying && job.status === 'applied' ? job.createCount + job.updateCount : job.total;
  return {
    id: job.id,
    status: job.status as CatalogImport['status'],
    reason: job.reason,
    fileName: job.fileName,
    createdAt: job.createdAt.toISOString(),
    appliedAt: job.appliedAt?.toISOString() ?? null,
    progress: { done: job.status === 'applied' ? total : job.status === 'ready' ? job.total : job.done, total },
    summary: { create: job.createCount, update: job.updateCount, unchanged: job.unchangedCount, invalid: job.invalidCount },
    canUndo,
  };
}

async function toAnswer(ctx: SellerContext, job: CatalogImportRow): Promise<CatalogImport> {
  const canUndo = job.status === 'applied' && isWithinUndoWindow(job, ctx.clock()) && (await latestAppliedId(ctx.db, ctx.user.id)) === job.id;
  const rows = await ctx.db
    .select({ row: catalogImportRows.rowNumber, errors: catalogImportRows.errors })
    .from(catalogImportRows)
    .where(and(eq(catalogImportRows.importId, job.id), eq(catalogImportRows.action, 'invalid')))
    .orderBy(asc(catalogImportRows.rowNumber))
    .limit(CATALOG_IMPORT_LIMITS.errorsShown);
  const errors = rows
    .flatMap((r) => (r.errors ?? []).map((e) => ({ row: r.row, column: e.column, message: e.message })))
    .slice(0, CATALOG_IMPORT_LIMITS.errorsShown);
  return { ...toListItem(job, canUndo), errors };
}

/**
 * A new job in `validating`, its file stored piece by piece as the upload arrives (never whole in
 * memory); the job runner validates it once the last byte is in. The database's index refuses a second
 * running job, before the file is read. A body cut off or too large leaves no job behind.
 */
export async function createImport(
  ctx: SellerContext,
  claimant: Claimant,
  input: { fileName: string; pieces: AsyncIterable<Buffer> },
): Promise<{ id: string }> {
  const pieces = input.pieces[Symbol.asyncIterator]();
  let first = await pieces.next();
  while (!first.done && first.value.length === 0) first = await pieces.next();
  if (first.done)
    throw new AppError('VALIDATION', 'The file is empty. Choose a CSV file with a header row and one product a row.', {
      title: 'Empty file',
      fieldErrors: { file: ['The file is empty'] },
    });
  let id: string;
  try {
    const [job] = await ctx.db
      .insert(catalogImports)
      .values({
        sellerId: ctx.user.id,
        sellerEmail: ctx.user.email,
        fileName: input.fileName.slice(0, 200) || 'catalog.csv',
        claimedBy: claimant.claimer,
        leaseUntil: sql`now() + ${intervalOf(claimant.leaseMs)}::interval`,
      })
      .returning({ id: catalogImports.id });
    id = job!.id;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The answer waits for the rest of the body, so the connection is left clean for the next request.
    await drain(pieces).catch(() => undefined);
    throw conflict('An import of yours is still running. Wait for it to finish, then upload the next file.', 'Import already running');
  }
  const rest: AsyncIterable<Buffer> = {
    async *[Symbol.asyncIterator]() {
      yield first.value as Buffer;
      for (let next = await pieces.next(); !next.done; next = await pieces.next()) yield next.value;
    },
  };
  try {
    await storeUpload(ctx.db, claimant, id, rest);
  } catch (error) {
    await ctx.db.delete(catalogImports).where(eq(catalogImports.id, id));
    if (!(error instanceof LeaseLost)) throw error;
    // This process stalled past its lease mid-upload (database away, event loop held) and the job may be
    // another's now: nothing of it is kept, and the seller sends the file again.
    await drain(pieces).catch(() => undefined);
    throw uploadInterrupted();
  }
  return { id };
}

async function drain(pieces: AsyncIterator<Buffer>): Promise<void> {
  for (let next = await pieces.next(); !next.done; next = await pieces.next());
}

export async function getImport(ctx: SellerContext, id: string): Promise<CatalogImport> {
  return toAnswer(ctx, await ownJob(ctx, id));
}

export async function listImports(ctx: SellerContext): Promise<CatalogImportListItem[]> {
  const jobs = await ctx.db
    .select()
    .from(catalogImports)
    .where(eq(catalogImports.sellerId, ctx.user.id))
    .orderBy(desc(catalogImports.createdAt))
    .limit(CATALOG_IMPORT_LIMITS.historyMax);
  const latest = await latestAppliedId(ctx.db, ctx.user.id);
  return jobs.map((job) => toListItem(job, job.id === latest && isWithinUndoWindow(job, ctx.clock())));
}

/** Applies a job in `ready`: it becomes `applying`, and the job runner takes it up. */
export async function startApply(ctx: SellerContext, id: string): Promise<CatalogImport> {
  const job = await ownJob(ctx, id);
  if (job.status !== 'ready') throw conflict(`This import is ${job.status}; only an import ready for review can be applied.`, 'Import not ready');
  try {
    const [started] = await ctx.db
      .update(catalogImports)
      .set({ status: 'applying', done: 0, total: job.createCount + job.updateCount, leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(catalogImports.id, job.id), eq(catalogImports.status, 'ready')))
      .returning();
    if (!started) throw conflict('This import is already being applied.', 'Import not ready');
    return toAnswer(ctx, started);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('Another import of yours is running. Wait for it to finish, then apply this one.', 'Import already running');
    throw error;
  }
}

/** Rows that will be (or were) written, with their old → new cells; one page by row number. */
export async function listChanges(ctx: SellerContext, id: string, query: CatalogChangesQuery): Promise<Page<CatalogRowChange>> {
  // The cursor first: one that was never issued is a 422 whatever the job, as on every list.
  const afterRow = decodeCursor(query.cursor) ?? 0;
  const job = await ownJob(ctx, id);
  const rows = await ctx.db
    .select({
      row: catalogImportRows.rowNumber,
      action: catalogImportRows.action,
      productId: catalogImportRows.productId,
      data: catalogImportRows.data,
      before: catalogImportRows.before,
      appliedAt: catalogImportRows.appliedAt,
    })
    .from(catalogImportRows)
    .where(and(eq(catalogImportRows.importId, job.id), inArray(catalogImportRows.action, ['create', 'update']), gt(catalogImportRows.rowNumber, afterRow)))
    .orderBy(asc(catalogImportRows.rowNumber))
    .limit(query.limit + 1);
  const ids = rows.filter((r) => r.productId && !r.appliedAt).map((r) => r.productId!);
  const current =
    ids.length === 0
      ? []
      : await ctx.db
          .select({ id: products.id, ...stagedColumns })
          .from(products)
          .where(and(inArray(products.id, ids), eq(products.ownerId, ctx.user.id)));
  const byId = new Map(current.map((p) => [p.id, p]));
  const page = takePage(
    rows.map((r) => ({ ...r, seq: r.row })),
    query.limit,
  );
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((r) => {
      // Before the apply the old values are the product's now; after it, what the apply replaced.
      const from = r.appliedAt ? r.before : r.productId ? (byId.get(r.productId) ?? null) : null;
      return { row: r.row, sku: r.data!.sku, action: r.action as 'create' | 'update', productId: r.productId, changes: changedCells(from, r.data!) };
    }),
  };
}

/** Every invalid row as it was given, with its reasons, ready to fix and upload again. */
export async function errorsCsv(ctx: SellerContext, id: string): Promise<Readable> {
  const job = await ownJob(ctx, id);
  const db = ctx.db;
  async function* rows() {
    let afterRow = 0;
    for (;;) {
      const batch = await db
        .select({ row: catalogImportRows.rowNumber, cells: catalogImportRows.cells, errors: catalogImportRows.errors })
        .from(catalogImportRows)
        .where(and(eq(catalogImportRows.importId, job.id), eq(catalogImportRows.action, 'invalid'), gt(catalogImportRows.rowNumber, afterRow)))
        .orderBy(asc(catalogImportRows.rowNumber))
        .limit(1_000);
      for (const r of batch) {
        const out: Record<string, string> = {};
        for (const column of CATALOG_CSV_COLUMNS) out[column] = neutralizeFormula(r.cells[column] ?? '');
        out.row = String(r.row);
        out.error = neutralizeFormula((r.errors ?? []).map((e) => `${e.column}: ${e.message}`).join('; '));
        yield out;
      }
      if (batch.length < 1_000) return;
      afterRow = batch.at(-1)!.row;
    }
  }
  return toCsvStream(rows(), ERRORS_CSV_COLUMNS);
}

/**
 * Puts the catalog back as it was before the seller's latest applied import, in one transaction: every
 * updated product gets its old columns back, every created product is deleted, or, when it has been
 * ordered since, kept for its orders and unlisted (docs/product/rules.md, "Unlisted products"): buyers
 * no longer see or buy it, its stock is left as it is, and its seller may list it again.
 */
export async function undoImport(ctx: SellerContext, id: string): Promise<CatalogUndoResult> {
  const job = await ownJob(ctx, id);
  if (job.status !== 'applied') throw conflict(`This import is ${job.status}; only an applied import can be undone.`, 'Cannot undo');
  if (!isWithinUndoWindow(job, ctx.clock())) throw conflict('An import can be undone within 24 hours of applying it; this one is older.', 'Cannot undo');
  if ((await latestAppliedId(ctx.db, ctx.user.id)) !== job.id)
    throw conflict('Only your latest applied import can be undone; undo the later one first.', 'Cannot undo');
  const counts = await ctx.db.transaction(async (tx) => {
    const [locked] = await tx
      .update(catalogImports)
      .set({ status: 'undone', undoneAt: ctx.clock(), updatedAt: sql`now()` })
      .where(and(eq(catalogImports.id, job.id), eq(catalogImports.status, 'applied')))
      .returning({ id: catalogImports.id });
    if (!locked) throw conflict('This import was undone already.', 'Cannot undo');
    const restored = await queryRows<{ id: string }>(
      tx as unknown as Db,
      sql`UPDATE products p SET
            name = b->>'name', image = b->>'image', image2 = b->>'image2', image3 = b->>'image3',
            brandname = b->>'brandname', category = b->>'category', description = b->>'description', content = b->>'content',
            price_cents = (b->>'priceCents')::int, discount = (b->>'discount')::smallint, price_breaks = b->'priceBreaks',
            casepack = (b->>'casepack')::int, sku = b->>'sku', mainquantity = (b->>'mainquantity')::int,
            minquantity = (b->>'minquantity')::int, updated_by = ${ctx.user.email}, updated_at = now()
          FROM (SELECT product_id, before AS b FROM catalog_import_rows
                WHERE import_id = ${job.id} AND applied_at IS NOT NULL AND before IS NOT NULL) r
          WHERE p.id = r.product_id AND p.owner_id = ${ctx.user.id}
          RETURNING p.id`,
    );
    const created = sql`SELECT product_id FROM catalog_import_rows WHERE import_id = ${job.id} AND applied_at IS NOT NULL AND before IS NULL`;
    const ordered = sql`(EXISTS (SELECT 1 FROM order_lines l WHERE l.product_id = p.id) OR EXISTS (SELECT 1 FROM orders o WHERE o.product_id = p.id))`;
    const unlisted = await queryRows<{ id: string }>(
      tx as unknown as Db,
      sql`UPDATE products p SET unlisted_at = now(), updated_by = ${ctx.user.email}, updated_at = now()
          WHERE p.id IN (${created}) AND p.owner_id = ${ctx.user.id} AND ${ordered} RETURNING p.id`,
    );
    const removed = await queryRows<{ id: string }>(
      tx as unknown as Db,
      sql`DELETE FROM products p WHERE p.id IN (${created}) AND p.owner_id = ${ctx.user.id} AND NOT ${ordered} RETURNING p.id`,
    );
    return { restored: restored.length, removed: removed.length, unlisted: unlisted.length };
  });
  return { import: await getImport(ctx, job.id), ...counts };
}
