import { bearer, signUp, type BenchUser } from '../lib/accounts.ts';
import { createBenchDatabase } from '../lib/databases.ts';
import { httpRequest, requestJson } from '../lib/http.ts';
import { startServerProcess, withPeakRss } from '../lib/processes.ts';
import { DATABASE_LABEL, type BenchContext } from '../lib/context.ts';

/** Catalog CSV import and export (docs/decisions/018-catalog-import.md; targets in docs/benchmarks.md). */
export interface CatalogImportRow {
  database: string;
  rows: number;
  /** Brands in the file: 1 puts every product into one search facet cell. */
  brands: number;
  megabytes: number;
  uploadMs: number;
  validateMs: number;
  applyMs: number;
  exportMs: number;
  exportRowsPerSecond: number;
  /** The same export once more: the first one is also the first read of rows the apply just wrote. */
  exportAgainRowsPerSecond: number;
  restRssMiB: number;
  /** Peak RSS while the file is uploaded and validated, applied, exported. */
  validatePeakRssMiB: number;
  applyPeakRssMiB: number;
  exportPeakRssMiB: number;
  peakRssMiB: number;
}

const HEADER = 'sku,name,category,brandname,price,minquantity,casepack,mainquantity,discount,tiers,description,image,image2,image3,content';
const BOUNDARY = 'bench-catalog-import-boundary';

/**
 * A create-only file. 500 brands spread products over the search facet cells as a real catalog does;
 * 1 brand puts them all into one cell (the worst case for the cells' upkeep).
 */
function catalogCsv(rows: number, brands: number): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `BENCH-${i},Bulk item ${i},Office Supplies & Stationery,Brand ${i % brands},1.${(i % 90) + 10},10,1,100,0,,Boxed for resale,/images/products/bench.webp,,,`,
    );
  }
  return lines.join('\n');
}

async function waitFor(url: string, user: BenchUser, id: string, until: string): Promise<void> {
  for (;;) {
    const { json } = await requestJson<{ status: string; reason: string | null }>(`${url}/api/catalog-imports/${id}`, { headers: bearer(user) });
    if (json.status === until) return;
    if (json.status === 'failed') throw new Error(`import failed: ${json.reason}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function measureOne(context: BenchContext, database: 'pglite' | 'postgres', { rows, brands }: ImportCase): Promise<CatalogImportRow> {
  const { target, remove } = await createBenchDatabase(context.pgAdminUrl, database, `import_${rows}_${brands}`);
  const server = await startServerProcess({ database: target, name: `import-${database}-${rows}-${brands}` });
  try {
    const seller = await signUp(server.url, 'Bench Import Seller', 'seller');
    const csv = catalogCsv(rows, brands);
    const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="catalog.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${BOUNDARY}--\r\n`;
    const restRssMiB = server.rssMiB();
    context.log(`catalog import ${database}: ${rows} rows, ${brands} brands (${(csv.length / 1e6).toFixed(1)} MB)`);
    // The server's peak RSS in each phase: upload and validation, apply, export.
    const phase = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
      const { result, peakRssMiB } = await withPeakRss([server.pid], run);
      return [result, peakRssMiB[0] ?? Number.NaN];
    };
    let started = Date.now();
    const [{ uploadMs, id }, validatePeakRssMiB] = await phase(async () => {
      const upload = await httpRequest(`${server.url}/api/catalog-imports`, {
        method: 'POST',
        headers: { ...bearer(seller), origin: server.url, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body,
      });
      if (upload.status !== 202) throw new Error(`upload: ${upload.status} ${upload.body.toString('utf8').slice(0, 300)}`);
      const ms = Date.now() - started;
      const created = JSON.parse(upload.body.toString('utf8')) as { id: string };
      await waitFor(server.url, seller, created.id, 'ready');
      return { uploadMs: ms, id: created.id };
    });
    const validateMs = Date.now() - started;
    started = Date.now();
    const [, applyPeakRssMiB] = await phase(async () => {
      const apply = await httpRequest(`${server.url}/api/catalog-imports/${id}/apply`, { method: 'POST', headers: { ...bearer(seller), origin: server.url } });
      if (apply.status !== 202) throw new Error(`apply: ${apply.status}`);
      await waitFor(server.url, seller, id, 'applied');
    });
    const applyMs = Date.now() - started;
    const exportOnce = async () => {
      const since = Date.now();
      const exported = await httpRequest(`${server.url}/api/my/catalog.csv`, { headers: bearer(seller) });
      const ms = Date.now() - since;
      const exportedRows = exported.body.toString('utf8').trimEnd().split('\r\n').length - 1;
      if (exportedRows !== rows) throw new Error(`export gave ${exportedRows} rows, not ${rows}`);
      return ms;
    };
    const [[exportMs, exportAgainMs], exportPeakRssMiB] = await phase(async () => [await exportOnce(), await exportOnce()] as const);
    return {
      database: DATABASE_LABEL[database],
      rows,
      brands,
      megabytes: csv.length / 1e6,
      uploadMs,
      validateMs,
      applyMs,
      exportMs,
      exportRowsPerSecond: rows / (exportMs / 1000),
      exportAgainRowsPerSecond: rows / (exportAgainMs / 1000),
      restRssMiB,
      validatePeakRssMiB,
      applyPeakRssMiB,
      exportPeakRssMiB,
      peakRssMiB: Math.max(validatePeakRssMiB, applyPeakRssMiB, exportPeakRssMiB),
    };
  } finally {
    await server.stop();
    remove();
  }
}

export interface ImportCase {
  rows: number;
  brands: number;
}

/** `--import-cases=10000x500,100000x500,100000x1`: rows × brands. */
export function parseImportCases(text: string): ImportCase[] {
  return text.split(',').map((item) => {
    const [rows, brands] = item.trim().split('x').map(Number);
    if (!Number.isInteger(rows) || !Number.isInteger(brands) || rows! < 1 || brands! < 1) throw new Error(`bad import case "${item}" (rows x brands)`);
    return { rows: rows!, brands: brands! };
  });
}

/**
 * A 10,000-row and a 100,000-row create import spread over many facet cells, and a 100,000-row one into a
 * single cell, on each database: validate, apply, export, memory.
 */
export async function measureCatalogImport(
  context: BenchContext,
  cases: ImportCase[] = parseImportCases('10000x500,100000x500,100000x1'),
): Promise<CatalogImportRow[]> {
  const rows: CatalogImportRow[] = [];
  for (const database of context.databases) {
    for (const one of cases) rows.push(await measureOne(context, database, one));
  }
  return rows;
}
