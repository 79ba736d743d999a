import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { bytea } from './business.ts';

/**
 * A catalog import job (docs/decisions/018-catalog-import.md). The uploaded file is kept in
 * catalog_import_chunks until it is validated; its rows then live in catalog_import_rows. A process works
 * on a job only while it holds the lease (`lease_until`), so after a crash another process takes it up
 * again. `uploaded_at` stays NULL while the file is still arriving: a job whose upload stopped (the
 * process died mid-request) is failed, never validated from half a file.
 */
export const catalogImports = pgTable(
  'catalog_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: text('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    sellerEmail: text('seller_email').notNull(),
    status: text('status').notNull().default('validating'),
    reason: text('reason'),
    fileName: text('file_name').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    createCount: integer('create_count').notNull().default(0),
    updateCount: integer('update_count').notNull().default(0),
    unchangedCount: integer('unchanged_count').notNull().default(0),
    invalidCount: integer('invalid_count').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** The process holding the lease, or that held it last (host:pid:tag): renewals check it. */
    claimedBy: text('claimed_by'),
    attempts: smallint('attempts').notNull().default(0),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('catalog_imports_status', sql`${t.status} IN ('validating', 'ready', 'applying', 'applied', 'failed', 'undone')`),
    index('catalog_imports_seller_created_idx').on(t.sellerId, t.createdAt.desc()),
    // At most one job per seller is working at a time; the database holds the rule under any race.
    uniqueIndex('catalog_imports_one_running_idx')
      .on(t.sellerId)
      .where(sql`${t.status} IN ('validating', 'applying')`),
    index('catalog_imports_running_idx')
      .on(t.createdAt)
      .where(sql`${t.status} IN ('validating', 'applying')`),
  ],
);

export type CatalogImportRow = typeof catalogImports.$inferSelect;

/**
 * The uploaded file of a job still to be validated, in pieces of about a megabyte written as the upload
 * arrives and read back one at a time, so neither the upload nor the validation holds the whole file in
 * memory. Deleted once the job is validated or failed.
 */
export const catalogImportChunks = pgTable(
  'catalog_import_chunks',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => catalogImports.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.seq] }), check('catalog_import_chunks_size', sql`octet_length(${t.bytes}) <= 52428800`)],
);

/** The columns of a product an import writes, as stored (cents, jsonb breaks). */
export interface StagedProduct {
  name: string;
  image: string;
  image2: string | null;
  image3: string | null;
  brandname: string;
  category: string;
  description: string | null;
  content: string | null;
  priceCents: number | null;
  discount: number;
  priceBreaks: Array<{ minquantity: number; priceCents: number }>;
  casepack: number;
  sku: string;
  mainquantity: number;
  minquantity: number;
}

/**
 * One data row of an import's file: what it will do, its checked values (`data`), and once applied,
 * the product as it was before (`before`), which undo puts back. Product ids carry no foreign key:
 * a row outlives a product deleted since.
 */
export const catalogImportRows = pgTable(
  'catalog_import_rows',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => catalogImports.id, { onDelete: 'cascade' }),
    rowNumber: integer('row_number').notNull(),
    sku: text('sku'),
    action: text('action').notNull(),
    productId: uuid('product_id'),
    data: jsonb('data').$type<StagedProduct>(),
    before: jsonb('before').$type<StagedProduct>(),
    /** The cells as given, for errors.csv. */
    cells: jsonb('cells').$type<Record<string, string>>().notNull(),
    errors: jsonb('errors').$type<Array<{ column: string; message: string }>>(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.rowNumber] }),
    check('catalog_import_rows_action', sql`${t.action} IN ('create', 'update', 'unchanged', 'invalid')`),
    index('catalog_import_rows_sku_idx').on(t.importId, sql`lower(${t.sku})`),
    index('catalog_import_rows_product_idx').on(t.productId),
  ],
);
