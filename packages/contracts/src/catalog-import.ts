import { z } from 'zod';
import { addProductInputSchema, type AddProductInput, type PriceBreak } from './product.ts';
import { cursorSchema } from './cursor.ts';

/**
 * Catalog CSV (docs/product/catalog-csv.md, docs/decisions/018-catalog-import.md): the export's columns
 * in its order. An import takes them in any order; only `sku` and the product form's required fields
 * must be there.
 */
export const CATALOG_CSV_COLUMNS = [
  'sku',
  'name',
  'category',
  'brandname',
  'price',
  'minquantity',
  'casepack',
  'mainquantity',
  'discount',
  'tiers',
  'description',
  'image',
  'image2',
  'image3',
  'content',
] as const;
export type CatalogCsvColumn = (typeof CATALOG_CSV_COLUMNS)[number];

/** Columns a file must have: the SKU that matches a product, and the form's required fields. */
export const CATALOG_CSV_REQUIRED_COLUMNS: readonly CatalogCsvColumn[] = ['sku', 'name', 'category', 'brandname', 'minquantity', 'mainquantity', 'image'];

export const CATALOG_IMPORT_LIMITS = {
  maxBytes: 50 * 1024 * 1024,
  maxRows: 100_000,
  /** A cell longer than this is an error on its row (the longest field, Content, is 5,000). */
  maxCellChars: 10_000,
  /** Errors the job's answer carries; errors.csv has them all. */
  errorsShown: 100,
  /** Jobs the history list shows. */
  historyMax: 20,
  /** How long after applying an import can be undone. */
  undoWindowMs: 24 * 60 * 60 * 1000,
  changesPageMax: 200,
} as const;

export const CATALOG_IMPORT_STATUSES = ['validating', 'ready', 'applying', 'applied', 'failed', 'undone'] as const;
export const catalogImportStatusSchema = z.enum(CATALOG_IMPORT_STATUSES);
export type CatalogImportStatus = z.infer<typeof catalogImportStatusSchema>;

export const CATALOG_ROW_ACTIONS = ['create', 'update', 'unchanged', 'invalid'] as const;
export type CatalogRowAction = (typeof CATALOG_ROW_ACTIONS)[number];

export const catalogRowErrorSchema = z.object({
  row: z.int().describe('The row in the file; the header is row 1'),
  column: z.string().describe('The column to fix, or "row" for the row as a whole'),
  message: z.string(),
});
export type CatalogRowError = z.infer<typeof catalogRowErrorSchema>;

const countsSchema = z.object({ create: z.int(), update: z.int(), unchanged: z.int(), invalid: z.int() });

/** GET /api/catalog-imports/{id}: one import job as its seller sees it. */
export const catalogImportSchema = z.object({
  id: z.string(),
  status: catalogImportStatusSchema,
  reason: z.string().nullable().describe('Why the job failed; null otherwise'),
  fileName: z.string(),
  createdAt: z.string(),
  appliedAt: z.string().nullable(),
  progress: z.object({ done: z.int(), total: z.int() }).describe('Rows validated (validating) or written (applying) of all'),
  summary: countsSchema,
  errors: z.array(catalogRowErrorSchema).describe(`The first ${CATALOG_IMPORT_LIMITS.errorsShown} errors; errors.csv has every invalid row`),
  canUndo: z.boolean().describe("Whether this is the seller's latest applied import and still within 24 hours"),
});
export type CatalogImport = z.infer<typeof catalogImportSchema>;

export const catalogImportListSchema = z.array(catalogImportSchema.omit({ errors: true }));
export type CatalogImportListItem = z.infer<typeof catalogImportListSchema>[number];

export const catalogImportCreatedSchema = z.object({ id: z.string() });

/** One changed field of a row, as text in the file's own spelling. */
export const catalogFieldChangeSchema = z.object({ column: z.string(), from: z.string(), to: z.string() });

/** GET /api/catalog-imports/{id}/changes: the rows that will be (or were) created or updated. */
export const catalogRowChangeSchema = z.object({
  row: z.int(),
  sku: z.string(),
  action: z.enum(['create', 'update']),
  productId: z.string().nullable(),
  changes: z.array(catalogFieldChangeSchema),
});
export const catalogChangesSchema = z.array(catalogRowChangeSchema);
export type CatalogRowChange = z.infer<typeof catalogRowChangeSchema>;

export const catalogChangesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(CATALOG_IMPORT_LIMITS.changesPageMax).default(50),
  cursor: z.optional(cursorSchema),
});
export type CatalogChangesQuery = z.infer<typeof catalogChangesQuerySchema>;

/** POST /api/catalog-imports/{id}/undo. */
export const catalogUndoResultSchema = z.object({
  import: catalogImportSchema,
  restored: z.int().describe('Updated products put back as they were'),
  removed: z.int().describe('Created products deleted'),
  unlisted: z.int().describe('Created products ordered since: kept for their orders and unlisted (absent for buyers; the seller may list them again)'),
});
export type CatalogUndoResult = z.infer<typeof catalogUndoResultSchema>;

/** A spreadsheet runs a cell starting with one of these as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Export: a cell a spreadsheet would run is given a leading apostrophe, which shows as text. */
export function neutralizeFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** Import: the apostrophe the export added comes off again, so a round trip changes nothing. */
export function restoreFormulaText(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** Money in a CSV cell: dollars with two decimals and no symbol or grouping (`1234.50`). */
export function formatCsvMoney(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** `50:9.25|200:8.00`: each break's quantity and unit price, lowest quantity first. */
export function formatTiers(tiers: ReadonlyArray<{ minquantity: number; priceCents: number }>): string {
  return tiers.map((t) => `${t.minquantity}:${formatCsvMoney(t.priceCents)}`).join('|');
}

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/** A cell meant as a number: '' is "not given", a number's text its value; anything else stays text so the schema names the field. */
function cellNumber(cell: string): unknown {
  const text = cell.trim();
  if (text === '') return undefined;
  return NUMBER_TEXT.test(text) ? Number(text) : text;
}

function parseTiers(cell: string): PriceBreak[] | string {
  const text = cell.trim();
  if (text === '') return [];
  const tiers: PriceBreak[] = [];
  for (const part of text.split('|')) {
    const match = /^\s*(\d+)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!match) return 'Volume breaks must be written as quantity:price separated by |, e.g. 50:9.25|200:8';
    tiers.push({ minquantity: Number(match[1]), price: Number(match[2]) });
  }
  return tiers;
}

/** Form field (as the product schema names it, e.g. `tiers.1.price`) → the CSV column to fix. */
function columnOf(path: ReadonlyArray<PropertyKey>): string {
  const head = String(path[0] ?? 'row');
  return head === 'Content' ? 'content' : head;
}

export type CatalogRowResult = { ok: true; product: AddProductInput & { sku: string } } | { ok: false; errors: Array<{ column: string; message: string }> };

/**
 * One CSV record → the product form's input, checked by the form's own schema (addProductInputSchema):
 * the same messages, MOQ and case pack, ladder and image rules. A row must have a SKU.
 */
export function parseCatalogRow(record: Readonly<Partial<Record<CatalogCsvColumn, string>>>): CatalogRowResult {
  const cell = (column: CatalogCsvColumn) => restoreFormulaText(record[column] ?? '');
  const errors: Array<{ column: string; message: string }> = [];
  for (const column of CATALOG_CSV_COLUMNS) {
    if ((record[column]?.length ?? 0) > CATALOG_IMPORT_LIMITS.maxCellChars) {
      errors.push({ column, message: `Cell is longer than ${CATALOG_IMPORT_LIMITS.maxCellChars.toLocaleString('en-US')} characters` });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  if (cell('sku').trim() === '') errors.push({ column: 'sku', message: 'SKU is required: every row is matched to a product by its SKU' });
  const tiers = parseTiers(cell('tiers'));
  if (typeof tiers === 'string') errors.push({ column: 'tiers', message: tiers });
  const result = addProductInputSchema.safeParse({
    sku: cell('sku'),
    name: cell('name'),
    category: cell('category').trim(),
    brandname: cell('brandname'),
    price: cellNumber(cell('price')),
    minquantity: cellNumber(cell('minquantity')),
    casepack: cellNumber(cell('casepack')),
    mainquantity: cellNumber(cell('mainquantity')),
    discount: cellNumber(cell('discount')),
    tiers: typeof tiers === 'string' ? [] : tiers,
    description: cell('description'),
    image: cell('image'),
    image2: cell('image2'),
    image3: cell('image3'),
    Content: cell('content'),
  });
  if (!result.success) {
    for (const issue of result.error.issues) {
      const column = columnOf(issue.path);
      if (column === 'sku' && errors.some((e) => e.column === 'sku')) continue;
      errors.push({ column, message: issue.message });
    }
  }
  if (errors.length > 0 || !result.success) return { ok: false, errors };
  return { ok: true, product: { ...result.data, sku: result.data.sku ?? '' } };
}

/**
 * The header row's problems, in words a seller can act on, or null when it is fine: names compare
 * without case and surrounding spaces; unknown, repeated and missing columns are named.
 */
export function checkCatalogHeader(header: readonly string[]): string | null {
  const names = header.map((h) => h.trim().toLowerCase());
  const known = new Set<string>(CATALOG_CSV_COLUMNS);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    const shown = unknown
      .slice(0, 5)
      .map((n) => `"${n.slice(0, 40)}"`)
      .join(', ');
    return `Unknown column${unknown.length > 1 ? 's' : ''} ${shown}. The columns are: ${CATALOG_CSV_COLUMNS.join(', ')}.`;
  }
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (repeated.length > 0) return `The column "${repeated[0]}" appears more than once in the header.`;
  const missing = CATALOG_CSV_REQUIRED_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0) return `Missing required column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`;
  return null;
}
