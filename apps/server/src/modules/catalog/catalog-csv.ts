import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { and, asc, eq, gt } from 'drizzle-orm';
import { CATALOG_CSV_COLUMNS, formatCsvMoney, formatTiers, neutralizeFormula, toCents, type AddProductInput, type CatalogCsvColumn } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { products, type StagedProduct } from '../../db/schema/index.ts';

/** The columns an import writes, read from a product row. */
export const stagedColumns = {
  name: products.name,
  image: products.image,
  image2: products.image2,
  image3: products.image3,
  brandname: products.brandname,
  category: products.category,
  description: products.description,
  content: products.content,
  priceCents: products.priceCents,
  discount: products.discount,
  priceBreaks: products.priceBreaks,
  casepack: products.casepack,
  sku: products.sku,
  mainquantity: products.mainquantity,
  minquantity: products.minquantity,
};

type StagedRecord = { [K in keyof typeof stagedColumns]: (typeof products.$inferSelect)[K] };

/** A checked row (the product form's input) → the columns it writes, as an add would store them. */
export function toStaged(input: AddProductInput & { sku: string }): StagedProduct {
  return {
    name: input.name,
    image: input.image,
    image2: input.image2 ?? null,
    image3: input.image3 ?? null,
    brandname: input.brandname,
    category: input.category,
    description: input.description ?? null,
    content: input.Content ?? null,
    priceCents: input.price === undefined ? null : toCents(input.price),
    discount: input.discount ?? 0,
    priceBreaks: (input.tiers ?? []).map((t) => ({ minquantity: t.minquantity, priceCents: toCents(t.price) })),
    casepack: input.casepack ?? 1,
    sku: input.sku,
    mainquantity: input.mainquantity,
    minquantity: input.minquantity,
  };
}

/** A product's columns in the file's own spelling (money with two decimals, breaks as `50:9.25|200:8.00`). */
export function toCells(p: StagedRecord | StagedProduct): Record<CatalogCsvColumn, string> {
  return {
    sku: p.sku ?? '',
    name: p.name,
    category: p.category,
    brandname: p.brandname,
    price: p.priceCents === null ? '' : formatCsvMoney(p.priceCents),
    minquantity: String(p.minquantity),
    casepack: String(p.casepack),
    mainquantity: String(p.mainquantity),
    discount: String(p.discount),
    tiers: formatTiers(p.priceBreaks),
    description: p.description ?? '',
    image: p.image,
    image2: p.image2 ?? '',
    image3: p.image3 ?? '',
    content: p.content ?? '',
  };
}

/** The columns whose cells differ between two versions of a product, as the file would show them. */
export function changedCells(from: StagedRecord | StagedProduct | null, to: StagedProduct): Array<{ column: string; from: string; to: string }> {
  const after = toCells(to);
  const before = from ? toCells(from) : null;
  return CATALOG_CSV_COLUMNS.filter((c) => (before ? before[c] !== after[c] : after[c] !== '')).map((column) => ({
    column,
    from: before?.[column] ?? '',
    to: after[column],
  }));
}

const EXPORT_BATCH = 1_000;

/** Every product of the seller, oldest first, one keyset page of `seq` at a time: memory stays flat. */
async function* sellerProducts(db: Db, sellerId: string): AsyncGenerator<Record<CatalogCsvColumn, string>> {
  let afterSeq = 0;
  for (;;) {
    const rows = await db
      .select({ ...stagedColumns, seq: products.seq })
      .from(products)
      .where(and(eq(products.ownerId, sellerId), gt(products.seq, afterSeq)))
      .orderBy(asc(products.seq))
      .limit(EXPORT_BATCH);
    for (const row of rows) {
      const cells = toCells(row);
      for (const column of CATALOG_CSV_COLUMNS) cells[column] = neutralizeFormula(cells[column]);
      yield cells;
    }
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH) return;
    afterSeq = last.seq;
  }
}

/** Records as UTF-8 CSV with a header, a BOM (spreadsheets then read it as UTF-8) and CRLF, streamed. */
export function toCsvStream(records: AsyncIterable<Record<string, string>>, columns: readonly string[]): Readable {
  const source = Readable.from(records);
  const csv = stringify({ header: true, columns: [...columns], bom: true, record_delimiter: 'windows' });
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}

/** The seller's whole catalog as CSV. */
export function exportCatalogCsv(db: Db, sellerId: string): Readable {
  return toCsvStream(sellerProducts(db, sellerId), CATALOG_CSV_COLUMNS);
}

/** A file that is not a CSV we can read, in words a seller can act on. */
export class FileRefusal extends Error {}

/** Why a file is not CSV, judged from its first bytes, or null. */
function refuseHead(head: Buffer): string | null {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    return 'The file is UTF-16 text. Save it as "CSV UTF-8" and upload it again.';
  }
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    return 'The file is a zip archive (perhaps an .xlsx workbook), not CSV. Save it as "CSV UTF-8" and upload it again.';
  }
  return null;
}

const NOT_UTF8 = 'The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.';

/**
 * What csv-parse is fed at a time: it turns a whole chunk into records before the reader takes any, so
 * a stored piece is handed over in slices to keep that burst small (a piece of 32 KB is one slice).
 */
const PARSE_SLICE = 64 * 1024;

function* slices(piece: Buffer): Generator<Buffer> {
  for (let at = 0; at < piece.length; at += PARSE_SLICE) yield piece.subarray(at, at + PARSE_SLICE);
}

/**
 * The pieces of a file as they pass, each checked before it is parsed: no NUL byte, and UTF-8 across
 * the pieces' boundaries (the decoder keeps a character cut in two until the next piece).
 */
async function* checkedPieces(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const check = (piece: Buffer) => {
    if (piece.includes(0)) throw new FileRefusal('The file holds binary data (NUL bytes), not CSV text.');
    try {
      decoder.decode(piece, { stream: true });
    } catch {
      throw new FileRefusal(NOT_UTF8);
    }
    return piece;
  };
  yield* slices(check(first));
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield* slices(check(next.value));
  try {
    decoder.decode();
  } catch {
    throw new FileRefusal(NOT_UTF8);
  }
}

/** Comma unless the header line has semicolons and no commas (a spreadsheet in a comma-decimal locale). */
export function detectDelimiter(file: Buffer): ',' | ';' {
  const end = file.indexOf(0x0a);
  const firstLine = file.subarray(0, end < 0 ? Math.min(file.length, 64 * 1024) : end).toString('utf8');
  return firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
}

/** The largest record csv-parse holds: room for a 1 MB cell, which the row check then refuses by name. */
const MAX_RECORD_CHARS = 2 * 1024 * 1024;

/**
 * A file's records (the header first), parsed as a stream from its pieces in order (the first holds the
 * header line, or the whole file when it is shorter than a piece). A file that is not UTF-8 CSV text
 * ends it with a FileRefusal; a structural fault (a quote left open, a record too long) with a CsvError
 * that names the line. Memory holds a piece and a record, whatever the file's size.
 */
export async function* parseCsvRecords(pieces: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  const rest = pieces[Symbol.asyncIterator]();
  let first = await rest.next();
  while (!first.done && first.value.length === 0) first = await rest.next();
  if (first.done) throw new FileRefusal('The file is empty.');
  const refusal = refuseHead(first.value);
  if (refusal) throw new FileRefusal(refusal);
  const parser = parse({
    delimiter: detectDelimiter(first.value),
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  const source = Readable.from(checkedPieces(first.value, rest));
  source.on('error', (error) => parser.destroy(error));
  yield* source.pipe(parser) as AsyncIterable<string[]>;
}

/** A csv-parse error in words a seller can act on; anything else is not the file's fault. */
export function describeCsvError(error: unknown): string | null {
  if (error instanceof FileRefusal) return error.message;
  const code = (error as { code?: string }).code;
  const line = (error as { lines?: number }).lines;
  const at = typeof line === 'number' ? ` (line ${line})` : '';
  if (code === 'CSV_QUOTE_NOT_CLOSED') return `A quote is left open${at}: the file ends inside a quoted cell.`;
  if (code === 'CSV_INVALID_CLOSING_QUOTE' || code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE') return `A quoted cell is followed by other text${at}.`;
  if (code === 'CSV_MAX_RECORD_SIZE') return `A row is longer than ${MAX_RECORD_CHARS / 1024 / 1024} MB${at}.`;
  if (typeof code === 'string' && code.startsWith('CSV_')) return `The file is not valid CSV${at}.`;
  return null;
}
