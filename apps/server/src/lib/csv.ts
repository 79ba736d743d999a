import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';

/**
 * A text cell that a spreadsheet would run as a formula (= + - @, or a tab or carriage return that
 * some programs strip before looking) gets a leading apostrophe, so it shows as the text it is
 * (OWASP's CSV injection advice). Numbers are written as numbers: they cannot start a formula.
 */
export function spreadsheetSafe(value: string | number | null | undefined): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * A CSV file as a stream (csv-stringify): a header row, then the records as `records` yields them,
 * each cell made spreadsheet-safe. Records are pulled only as fast as the client reads.
 */
export function csvStream(header: readonly string[], records: AsyncIterable<Array<string | number | null | undefined>>): Readable {
  const safeRecords = (async function* () {
    for await (const record of records) yield record.map(spreadsheetSafe);
  })();
  const out = stringify({ header: true, columns: [...header], bom: true });
  // A failure half-way (the database gone) destroys the answer, so the client sees a cut-off file,
  // never a short file that looks complete.
  pipeline(Readable.from(safeRecords, { objectMode: true }), out, () => {});
  return out;
}
