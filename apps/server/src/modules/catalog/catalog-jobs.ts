import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  CATALOG_CSV_COLUMNS,
  CATALOG_IMPORT_LIMITS,
  checkCatalogHeader,
  parseCatalogRow,
  type CatalogCsvColumn,
  type CatalogRowAction,
} from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import { catalogImportChunks, catalogImportRows, catalogImports, products, type CatalogImportRow, type StagedProduct } from '../../db/schema/index.ts';
import { changedCells, describeCsvError, parseCsvRecords, stagedColumns, toStaged } from './catalog-csv.ts';
import { holdingLease, intervalOf, PROCESS_CLAIMER, type Claimant } from '../../lib/lease.ts';

/**
 * How long a claim lasts without renewal (the server passes JOB_LEASE_MS): a process that died lets go
 * of its job after this. A live one renews it after each batch and every third of it in between.
 */
export const LEASE_MS = 60_000;
const DEFAULT_CLAIMANT: Claimant = { claimer: PROCESS_CLAIMER, leaseMs: LEASE_MS };
/** A job whose work has thrown this many times is failed instead of tried again. */
const MAX_ATTEMPTS = 3;
const VALIDATE_BATCH = 500;
const APPLY_BATCH = 500;

/**
 * Lets the process serve requests between batches. Parsing runs in microtasks and PGlite answers
 * in-process, so without this a job would hold the event loop until it ends (polls and other
 * requests included).
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A reason the seller reads, for a job that ends in `failed`. */
class JobFailure extends Error {}

/** This process's lease lapsed and another process holds the job now: stop, and leave it to that one. */
export class LeaseLost extends Error {}

/**
 * Takes one job that is waiting for work (validating or applying) and nobody holds, for LEASE_MS. The
 * job is picked in a MATERIALIZED CTE with SKIP LOCKED and joined on, so two processes never take the
 * same one (docs/decisions/018-catalog-import.md).
 */
async function claimJob(db: Db, claimant: Claimant, onlyId?: string): Promise<CatalogImportRow | undefined> {
  const only = onlyId ? sql`AND id = ${onlyId}` : sql``;
  const [picked] = await queryRows<{ id: string }>(
    db,
    sql`WITH picked AS MATERIALIZED (
          SELECT id FROM catalog_imports
          WHERE status IN ('validating', 'applying') AND (lease_until IS NULL OR lease_until < now()) ${only}
          ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
        )
        UPDATE catalog_imports j
        SET lease_until = now() + ${intervalOf(claimant.leaseMs)}::interval, claimed_by = ${claimant.claimer}, attempts = j.attempts + 1, updated_at = now()
        FROM picked WHERE j.id = picked.id
        RETURNING j.id`,
  );
  if (!picked) return undefined;
  const [job] = await db.select().from(catalogImports).where(eq(catalogImports.id, picked.id));
  return job;
}

/** Records progress and renews the lease; throws LeaseLost when another process holds the job now. */
async function renewLease(db: Db, claimant: Claimant, id: string, progress: { done?: number; total?: number } = {}): Promise<void> {
  const renewed = await db
    .update(catalogImports)
    .set({ ...progress, leaseUntil: sql`now() + ${intervalOf(claimant.leaseMs)}::interval`, updatedAt: sql`now()` })
    .where(and(eq(catalogImports.id, id), eq(catalogImports.claimedBy, claimant.claimer)))
    .returning({ id: catalogImports.id });
  if (renewed.length === 0) throw new LeaseLost();
}

async function failJob(db: Db, id: string, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(catalogImports)
      .set({ status: 'failed', reason, leaseUntil: null, updatedAt: sql`now()` })
      .where(eq(catalogImports.id, id));
    await tx.delete(catalogImportChunks).where(eq(catalogImportChunks.importId, id));
  });
}

/**
 * The size of the pieces an upload is stored in. A piece is read back as a hex string twice its size
 * (bytea in PostgreSQL's text format) and written as one; at 32 KB that string stays under V8's
 * large-object size (128 KB), so it dies young in the new space instead of going straight to the old
 * space, which V8 lets grow before it collects (1 MB pieces: 2 MB strings, some 80 MB of old-space
 * garbage for a 13 MB file). A 50 MB file is some 1,600 pieces, one short query each.
 */
export const UPLOAD_PIECE_BYTES = 32 * 1024;
const PIECES_PER_LEASE_CHECK = (1024 * 1024) / UPLOAD_PIECE_BYTES;

/**
 * Stores an upload as it arrives, one piece of about UPLOAD_PIECE_BYTES at a time, for a job this process
 * holds; marks the job uploaded (and lets go of it, for the job runner) once the last byte is in. The
 * lease is renewed while the upload lasts, so no other process takes the job from half a file.
 */
export async function storeUpload(db: Db, claimant: Claimant, importId: string, pieces: AsyncIterable<Buffer>): Promise<void> {
  await holdingLease(
    claimant.leaseMs,
    () => renewLease(db, claimant, importId),
    async () => {
      let seq = 0;
      let held: Buffer[] = [];
      let heldBytes = 0;
      const write = async () => {
        if (heldBytes === 0) return;
        // The lease is renewed before every 1 MB stored: once another process holds the job (this one
        // stalled past its lease), at most that much more is stored for it before the upload stops with
        // LeaseLost (the last check is the final update below).
        if (seq % PIECES_PER_LEASE_CHECK === 0) await renewLease(db, claimant, importId);
        await db.insert(catalogImportChunks).values({ importId, seq, bytes: Buffer.concat(held, heldBytes) });
        seq += 1;
        held = [];
        heldBytes = 0;
      };
      for await (const piece of pieces) {
        held.push(piece);
        heldBytes += piece.length;
        if (heldBytes >= UPLOAD_PIECE_BYTES) await write();
      }
      await write();
    },
  );
  const uploaded = await db
    .update(catalogImports)
    .set({ uploadedAt: sql`now()`, leaseUntil: null, updatedAt: sql`now()` })
    .where(and(eq(catalogImports.id, importId), eq(catalogImports.claimedBy, claimant.claimer)))
    .returning({ id: catalogImports.id });
  if (uploaded.length === 0) throw new LeaseLost();
}

/** A stored upload's pieces in order, read one at a time. */
async function* storedFile(db: Db, importId: string): AsyncGenerator<Buffer> {
  for (let after = -1; ; ) {
    const [piece] = await db
      .select({ seq: catalogImportChunks.seq, bytes: catalogImportChunks.bytes })
      .from(catalogImportChunks)
      .where(and(eq(catalogImportChunks.importId, importId), gt(catalogImportChunks.seq, after)))
      .orderBy(asc(catalogImportChunks.seq))
      .limit(1);
    if (!piece) return;
    after = piece.seq;
    yield piece.bytes;
  }
}

interface StagedRow {
  importId: string;
  rowNumber: number;
  sku: string | null;
  action: CatalogRowAction;
  productId: string | null;
  data: StagedProduct | null;
  cells: Record<string, string>;
  errors: Array<{ column: string; message: string }> | null;
}

/**
 * Reads the file once to check its header and count its data rows, so progress has a total and a bad
 * header or a file over the limit is refused before any work.
 */
async function countRows(db: Db, importId: string): Promise<number> {
  let records = 0;
  for await (const record of parseCsvRecords(storedFile(db, importId))) {
    records += 1;
    if (records % 5_000 === 0) await yieldToEventLoop();
    if (records === 1) {
      const problem = checkCatalogHeader(record as string[]);
      if (problem) throw new JobFailure(problem);
    }
    if (records - 1 > CATALOG_IMPORT_LIMITS.maxRows) {
      throw new JobFailure(`The file has more than ${CATALOG_IMPORT_LIMITS.maxRows.toLocaleString('en-US')} rows. Split it into smaller files.`);
    }
  }
  if (records === 0) throw new JobFailure('The file is empty.');
  if (records === 1) throw new JobFailure('The file has a header row but no products.');
  return records - 1;
}

/** Each row's action against the seller's products as they are now. */
async function classify(db: Db, job: CatalogImportRow, rows: StagedRow[]): Promise<void> {
  const keys = [...new Set(rows.filter((r) => r.data).map((r) => r.data!.sku.toLowerCase()))];
  if (keys.length === 0) return;
  const existing = await db
    .select({ id: products.id, ...stagedColumns })
    .from(products)
    .where(and(eq(products.ownerId, job.sellerId), inArray(sql`lower(${products.sku})`, keys)));
  const byKey = new Map(existing.map((p) => [p.sku!.toLowerCase(), p]));
  for (const row of rows) {
    if (!row.data) continue;
    const current = byKey.get(row.data.sku.toLowerCase());
    if (!current) continue;
    row.productId = current.id;
    row.action = changedCells(current, row.data).length === 0 ? 'unchanged' : 'update';
  }
}

async function validateJob(db: Db, claimant: Claimant, job: CatalogImportRow): Promise<void> {
  // A job taken over after a crash starts its validation again: its rows so far are dropped.
  await db.delete(catalogImportRows).where(eq(catalogImportRows.importId, job.id));
  if (!job.uploadedAt) throw new JobFailure('The upload stopped before the whole file arrived. Upload the file again.');
  const total = await countRows(db, job.id);
  await renewLease(db, claimant, job.id, { done: 0, total });

  let header: CatalogCsvColumn[] | null = null;
  let rowNumber = 1;
  let batch: StagedRow[] = [];
  const flush = async () => {
    await classify(db, job, batch);
    if (batch.length > 0) await insertStagedRows(db, batch);
    batch = [];
    await renewLease(db, claimant, job.id, { done: rowNumber - 1 });
    await yieldToEventLoop();
  };
  for await (const record of parseCsvRecords(storedFile(db, job.id))) {
    if (!header) {
      header = record.map((h) => h.trim().toLowerCase() as CatalogCsvColumn);
      continue;
    }
    rowNumber += 1;
    batch.push(stageRecord(job.id, rowNumber, header, record));
    if (batch.length >= VALIDATE_BATCH) await flush();
  }
  await flush();
  await markDuplicateSkus(db, job.id);
  await finishValidation(db, job.id);
}

/** A batch of staging rows as one JSON parameter (see applyBatch's insert). */
async function insertStagedRows(db: Db, rows: StagedRow[]): Promise<void> {
  await db.execute(sql`
    INSERT INTO catalog_import_rows (import_id, row_number, sku, action, product_id, data, cells, errors)
    SELECT x."importId", x."rowNumber", x.sku, x.action, x."productId", x.data, x.cells, x.errors
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x("importId" uuid, "rowNumber" int, sku text, action text, "productId" uuid, data jsonb, cells jsonb, errors jsonb)`);
}

function stageRecord(importId: string, rowNumber: number, header: CatalogCsvColumn[], record: string[]): StagedRow {
  const cells: Record<string, string> = {};
  header.forEach((column, i) => {
    cells[column] = record[i] ?? '';
  });
  const sku = (cells.sku ?? '').trim().slice(0, 200) || null;
  const base = { importId, rowNumber, sku, productId: null, cells };
  if (record.length !== header.length) {
    const message = `The row has ${record.length} cells; the header has ${header.length} columns`;
    return { ...base, action: 'invalid', data: null, errors: [{ column: 'row', message }] };
  }
  const parsed = parseCatalogRow(cells);
  if (!parsed.ok) return { ...base, action: 'invalid', data: null, errors: parsed.errors };
  return { ...base, action: 'create', data: toStaged(parsed.product), errors: null };
}

/** The same SKU (any case) on two rows makes both invalid: which one was meant cannot be known. */
async function markDuplicateSkus(db: Db, importId: string): Promise<void> {
  await db.execute(sql`
    WITH dup AS MATERIALIZED (
      SELECT lower(sku) AS k, left(string_agg(row_number::text, ', ' ORDER BY row_number), 200) AS rows_text
      FROM catalog_import_rows WHERE import_id = ${importId} AND sku IS NOT NULL
      GROUP BY lower(sku) HAVING count(*) > 1
    )
    UPDATE catalog_import_rows r
    SET action = 'invalid', data = NULL, product_id = NULL, updated_at = now(),
        errors = coalesce(r.errors, '[]'::jsonb) || jsonb_build_array(jsonb_build_object(
          'column', 'sku', 'message', 'The SKU ' || r.sku || ' is on more than one row (rows ' || dup.rows_text || ')'))
    FROM dup WHERE r.import_id = ${importId} AND lower(r.sku) = dup.k`);
}

async function finishValidation(db: Db, importId: string): Promise<void> {
  const counts = await db
    .select({ action: catalogImportRows.action, n: sql<number>`count(*)::int` })
    .from(catalogImportRows)
    .where(eq(catalogImportRows.importId, importId))
    .groupBy(catalogImportRows.action);
  const count = (action: CatalogRowAction) => counts.find((c) => c.action === action)?.n ?? 0;
  // One transaction: a job is never ready with its file still stored, nor validating without it.
  await db.transaction(async (tx) => {
    await tx.delete(catalogImportChunks).where(eq(catalogImportChunks.importId, importId));
    await tx
      .update(catalogImports)
      .set({
        status: 'ready',
        leaseUntil: null,
        createCount: count('create'),
        updateCount: count('update'),
        unchangedCount: count('unchanged'),
        invalidCount: count('invalid'),
        updatedAt: sql`now()`,
      })
      .where(eq(catalogImports.id, importId));
  });
}

/**
 * Writes the valid rows in batches, each in one transaction that also marks its rows applied, so a job
 * taken over after a crash goes on from the first row not yet written. A row is matched to the product
 * again at write time (the seller may have added that SKU since the preview); what it was before is kept
 * for undo. Unchanged and invalid rows are never touched. `catalogChanged` is told after each batch
 * commits, before the job can be seen as applied.
 */
async function applyJob(db: Db, claimant: Claimant, job: CatalogImportRow, now: Date, catalogChanged: () => void): Promise<void> {
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(catalogImportRows)
    .where(and(eq(catalogImportRows.importId, job.id), inArray(catalogImportRows.action, ['create', 'update'])));
  // Rows written before a restart count as done; from here on each batch adds its own.
  const [{ applied } = { applied: 0 }] = await db
    .select({ applied: sql<number>`count(*)::int` })
    .from(catalogImportRows)
    .where(and(eq(catalogImportRows.importId, job.id), sql`${catalogImportRows.appliedAt} IS NOT NULL`));
  let done = applied;
  // Rows are written in row order, so each batch starts after the last row of the one before.
  let afterRow = 0;
  for (;;) {
    const batch = await db.transaction((tx) => applyBatch(tx as unknown as Db, job, afterRow));
    catalogChanged();
    done += batch.written;
    afterRow = batch.lastRow;
    await renewLease(db, claimant, job.id, { done, total });
    await yieldToEventLoop();
    if (batch.seen < APPLY_BATCH) break;
  }
  await db
    .update(catalogImports)
    .set({ status: 'applied', appliedAt: now, leaseUntil: null, updatedAt: sql`now()` })
    .where(eq(catalogImports.id, job.id));
  // A large import changes the products table faster than autovacuum's next look (up to a minute):
  // until then the planner plans on the old statistics, and the seller's export right after an
  // import of 100,000 rows ran at a third of its speed in some runs. ANALYZE samples, whatever the size.
  if (done >= ANALYZE_AFTER_ROWS) await db.execute(sql`ANALYZE products`);
}

/** Rows written by one import from which the products table's statistics are refreshed at once. */
const ANALYZE_AFTER_ROWS = 1_000;

/** The columns of StagedProduct as jsonb_to_recordset reads them. */
const RECORD_COLUMNS = sql.raw(
  `name text, image text, image2 text, image3 text, brandname text, category text, description text, content text, "priceCents" int,
   discount smallint, "priceBreaks" jsonb, casepack int, sku text, mainquantity int, minquantity int`,
);

/**
 * One batch, set-based and inside the database: the rows' data goes from the staging table to the
 * products by a few statements for up to APPLY_BATCH rows, whatever their mix of creates and updates.
 * Only the batch's row numbers pass through this process: reading the staged data and sending it back
 * as a JSON parameter was some 1 KB of strings a row, the garbage the server's heap grew with.
 */
async function applyBatch(tx: Db, job: CatalogImportRow, afterRow: number): Promise<{ seen: number; written: number; lastRow: number }> {
  const picked = await queryRows<{ row_number: number }>(
    tx,
    sql`SELECT row_number FROM catalog_import_rows
        WHERE import_id = ${job.id} AND row_number > ${afterRow} AND action IN ('create', 'update') AND applied_at IS NULL
        ORDER BY row_number LIMIT ${APPLY_BATCH} FOR UPDATE`,
  );
  const lastRow = picked.at(-1)?.row_number ?? afterRow;
  const result = { seen: picked.length, written: 0, lastRow };
  if (picked.length === 0) return result;
  const batch = sql`r.import_id = ${job.id} AND r.row_number > ${afterRow} AND r.row_number <= ${lastRow}
    AND r.action IN ('create', 'update') AND r.applied_at IS NULL AND r.data IS NOT NULL`;
  const owned = sql`p.owner_id = ${job.sellerId} AND lower(p.sku) = lower(r.data->>'sku')`;
  // The seller may have added or changed a SKU since the preview: each row is matched again, under a
  // lock, and what an updated product was before is kept for undo (in StagedProduct's shape).
  await tx.execute(sql`SELECT p.id FROM products p JOIN catalog_import_rows r ON ${owned} WHERE ${batch} ORDER BY p.id FOR UPDATE OF p`);
  await tx.execute(sql`
    UPDATE catalog_import_rows t SET product_id = m.id, before = m.before, action = CASE WHEN m.id IS NULL THEN 'create' ELSE 'update' END
    FROM (
      SELECT r.row_number, p.id,
        CASE WHEN p.id IS NULL THEN NULL ELSE jsonb_build_object(
          'name', p.name, 'image', p.image, 'image2', p.image2, 'image3', p.image3, 'brandname', p.brandname, 'category', p.category,
          'description', p.description, 'content', p.content, 'priceCents', p.price_cents, 'discount', p.discount,
          'priceBreaks', p.price_breaks, 'casepack', p.casepack, 'sku', coalesce(p.sku, r.data->>'sku'),
          'mainquantity', p.mainquantity, 'minquantity', p.minquantity) END AS before
      FROM catalog_import_rows r LEFT JOIN products p ON ${owned}
      WHERE ${batch}
    ) m
    WHERE t.import_id = ${job.id} AND t.row_number = m.row_number`);
  await tx.execute(sql`
    UPDATE products p SET name = x.name, image = x.image, image2 = x.image2, image3 = x.image3, brandname = x.brandname,
      category = x.category, description = x.description, content = x.content, price_cents = x."priceCents", discount = x.discount,
      price_breaks = x."priceBreaks", casepack = x.casepack, sku = x.sku, mainquantity = x.mainquantity, minquantity = x.minquantity,
      updated_by = ${job.sellerEmail}, updated_at = now()
    FROM catalog_import_rows r, jsonb_to_record(r.data) AS x(${RECORD_COLUMNS})
    WHERE ${batch} AND r.action = 'update' AND p.id = r.product_id AND p.owner_id = ${job.sellerId}`);
  await tx.execute(sql`
    WITH created AS (
      INSERT INTO products (name, image, image2, image3, brandname, category, description, content, price_cents, discount,
        price_breaks, casepack, sku, mainquantity, minquantity, owner_id, owner_email)
      SELECT x.name, x.image, x.image2, x.image3, x.brandname, x.category, x.description, x.content, x."priceCents", x.discount,
        x."priceBreaks", x.casepack, x.sku, x.mainquantity, x.minquantity, ${job.sellerId}, ${job.sellerEmail}
      FROM catalog_import_rows r, jsonb_to_record(r.data) AS x(${RECORD_COLUMNS})
      WHERE ${batch} AND r.action = 'create'
      ORDER BY r.row_number
      RETURNING id, sku
    )
    UPDATE catalog_import_rows r SET product_id = created.id
    FROM created WHERE ${batch} AND r.action = 'create' AND lower(r.data->>'sku') = lower(created.sku)`);
  const written = await queryRows<{ n: number }>(
    tx,
    sql`WITH done AS (UPDATE catalog_import_rows r SET applied_at = now(), updated_at = now() WHERE ${batch} RETURNING 1)
        SELECT count(*)::int AS n FROM done`,
  );
  return { ...result, written: written[0]?.n ?? 0 };
}

async function workOn(db: Db, claimant: Claimant, job: CatalogImportRow, now: () => Date, catalogChanged: () => void): Promise<void> {
  try {
    await holdingLease(
      claimant.leaseMs,
      () => renewLease(db, claimant, job.id),
      () => (job.status === 'validating' ? validateJob(db, claimant, job) : applyJob(db, claimant, job, now(), catalogChanged)),
    );
  } catch (error) {
    if (error instanceof LeaseLost) return;
    const reason = error instanceof JobFailure ? error.message : describeCsvError(error);
    if (reason) return failJob(db, job.id, reason);
    if (job.attempts < MAX_ATTEMPTS) throw error;
    await failJob(
      db,
      job.id,
      job.status === 'validating'
        ? 'The file could not be checked. Upload it again.'
        : 'The import stopped before every row was written; the rows written so far stay. Upload the file again to finish.',
    );
  }
}

/**
 * Works every waiting job this process can claim, one at a time; `onlyId` narrows it to one job.
 * `catalogChanged` is told whenever an apply has committed products (the kept catalog answers are then stale).
 */
export async function runCatalogJobs(
  db: Db,
  now: () => Date,
  onlyId?: string,
  claimant: Claimant = DEFAULT_CLAIMANT,
  catalogChanged: () => void = () => {},
): Promise<number> {
  let worked = 0;
  for (let job = await claimJob(db, claimant, onlyId); job; job = await claimJob(db, claimant, onlyId)) {
    await workOn(db, claimant, job, now, catalogChanged);
    worked += 1;
  }
  return worked;
}

/**
 * Starts work on a job at once in this process (instead of waiting for the background interval), and
 * remembers the promise so the app's close waits for it.
 */
export class CatalogJobKicker {
  private running: Promise<void> = Promise.resolve();
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly claimant: Claimant = DEFAULT_CLAIMANT,
    /** Told whenever a kicked job's apply has committed products (runCatalogJobs). */
    private readonly catalogChanged: () => void = () => {},
  ) {}
  kick(id: string): void {
    this.running = this.running
      .then(() => runCatalogJobs(this.db, this.now, id, this.claimant, this.catalogChanged))
      .then(
        () => undefined,
        (error: unknown) => this.log.warn({ err: error }, 'catalog import job failed; the background sweep tries it again'),
      );
  }
  idle(): Promise<void> {
    return this.running;
  }
}

/** The column names, for errors.csv: the file's columns and then the reason. */
export const ERRORS_CSV_COLUMNS = [...CATALOG_CSV_COLUMNS, 'row', 'error'] as const;
