import { PassThrough } from 'node:stream';
import { beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { CatalogImport, CatalogRowChange, CatalogUndoResult, Product } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { multipartBody } from '../../../test/helpers/business.ts';
import { cellsDifferingFromProducts, readProductRow, validProductBody } from '../../../test/helpers/products.ts';
import { queryRows } from '../../db/rows.ts';
import { catalogImportChunks, catalogImports, products } from '../../db/schema/index.ts';
import { runCatalogJobs } from './index.ts';

const HEADER = 'sku,name,category,brandname,price,minquantity,casepack,mainquantity,discount,tiers,description,image,image2,image3,content';
const CATEGORY = 'Home & Kitchen Appliances';

function csvRow(sku: string, overrides: Partial<Record<string, string>> = {}): string {
  const cells: Record<string, string> = {
    sku,
    name: `Kettle ${sku}`,
    category: `"${CATEGORY}"`,
    brandname: 'HomeChef',
    price: '12.00',
    minquantity: '20',
    casepack: '1',
    mainquantity: '500',
    discount: '0',
    tiers: '',
    description: 'Boxed for resale.',
    image: 'https://images.example.com/kettle.webp',
    image2: '',
    image3: '',
    content: '',
    ...overrides,
  };
  return HEADER.split(',')
    .map((c) => cells[c] ?? '')
    .join(',');
}

function upload(env: TestEnv, who: TestUser, csv: string | Buffer, filename = 'catalog.csv') {
  const body = multipartBody(typeof csv === 'string' ? Buffer.from(csv) : csv, { field: 'file', filename, type: 'text/csv' });
  return env.request({ method: 'POST', url: '/api/catalog-imports', headers: { ...asUser(who), ...body.headers }, payload: body.payload });
}

function getJob(env: TestEnv, who: TestUser, id: string) {
  return env.request({ method: 'GET', url: `/api/catalog-imports/${id}`, headers: asUser(who) });
}

/** Polls the job until it leaves validating/applying: the test waits on the job's own state. */
async function settled(env: TestEnv, who: TestUser, id: string): Promise<CatalogImport> {
  for (let i = 0; i < 1_000; i += 1) {
    const job = (await getJob(env, who, id)).json() as CatalogImport;
    if (job.status !== 'validating' && job.status !== 'applying') return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`import ${id} never settled`);
}

async function importFile(env: TestEnv, who: TestUser, csv: string | Buffer): Promise<CatalogImport> {
  const response = await upload(env, who, csv);
  expect(response.statusCode, response.body).toBe(202);
  return settled(env, who, (response.json() as { id: string }).id);
}

async function apply(env: TestEnv, who: TestUser, id: string): Promise<CatalogImport> {
  const response = await env.request({ method: 'POST', url: `/api/catalog-imports/${id}/apply`, headers: asUser(who) });
  expect(response.statusCode, response.body).toBe(202);
  return settled(env, who, id);
}

function undo(env: TestEnv, who: TestUser, id: string) {
  return env.request({ method: 'POST', url: `/api/catalog-imports/${id}/undo`, headers: asUser(who) });
}

async function exportCsv(env: TestEnv, who: TestUser): Promise<string> {
  const response = await env.request({ method: 'GET', url: '/api/my/catalog.csv', headers: asUser(who) });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  return response.body;
}

async function ownProducts(env: TestEnv, who: TestUser): Promise<Product[]> {
  return (await env.request({ method: 'GET', url: `/api/products/${encodeURIComponent(who.email)}?limit=200`, headers: asUser(who) })).json() as Product[];
}

async function addProduct(env: TestEnv, who: TestUser, overrides: Record<string, unknown>): Promise<Product> {
  const response = await env.request({ method: 'POST', url: '/api/addproduct', headers: asUser(who), payload: validProductBody(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Product;
}

describeEachDatabase('catalog CSV export and import', (env) => {
  let seller: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    seller = await signUpUser(env(), { name: 'Import Seller' });
    other = await signUpUser(env(), { name: 'Other Import Seller' });
  });

  it('exports the catalog with inert formula cells, and importing the export unchanged reports every row unchanged', async () => {
    const who = await signUpUser(env(), { name: 'Round Trip Seller' });
    await addProduct(env(), who, {
      sku: 'RT-1',
      name: '=HYPERLINK("http://evil")',
      price: 9.5,
      minquantity: 10,
      casepack: 5,
      tiers: [
        { minquantity: 50, price: 9.25 },
        { minquantity: 200, price: 8 },
      ],
    });
    await addProduct(env(), who, { sku: 'RT-2', name: 'Kettle, "steel"\nline two', description: '-minus first', Content: '' });
    await addProduct(env(), who, { sku: 'RT-3', price: '', discount: 0, image2: '' });
    const csv = await exportCsv(env(), who);
    expect(csv.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true);
    expect(csv).toContain(`RT-1,"'=HYPERLINK(""http://evil"")",${CATEGORY},HomeChef,9.50,10,5,500,10,50:9.25|200:8.00,`);
    expect(csv).toContain("'-minus first");

    const job = await importFile(env(), who, csv);
    expect(job).toMatchObject({ status: 'ready', summary: { create: 0, update: 0, unchanged: 3, invalid: 0 }, errors: [], progress: { done: 3, total: 3 } });
    // Nothing to write: applying changes nothing and reports zero rows.
    const applied = await apply(env(), who, job.id);
    expect(applied).toMatchObject({ status: 'applied', progress: { done: 0, total: 0 } });
  });

  it('checks every row with the product form’s rules: creates, updates and invalid rows with exact counts and messages', async () => {
    const who = await signUpUser(env(), { name: 'Mixed File Seller' });
    const existing = await addProduct(env(), who, { sku: 'UPD-1', price: 12, name: 'Old name' });
    await addProduct(env(), who, {
      sku: 'SAME-1',
      name: 'Kettle SAME-1',
      price: 12,
      minquantity: 20,
      casepack: 1,
      mainquantity: 500,
      discount: 0,
      description: 'Boxed for resale.',
      image: 'https://images.example.com/kettle.webp',
      image2: '',
      Content: '',
    });
    const csv = [
      HEADER,
      csvRow('NEW-1'),
      csvRow('upd-1', { name: 'New name', price: '11.50' }),
      csvRow('SAME-1'),
      csvRow('', { name: 'No sku' }),
      csvRow('BAD-MOQ', { minquantity: '10', casepack: '4' }),
      csvRow('BAD-CAT', { category: 'Toys' }),
      csvRow('DUP-1'),
      csvRow('dup-1'),
      csvRow('BAD-TIER', { tiers: '50:13.00' }),
      csvRow('BAD-IMG', { image: 'javascript:alert(1)', price: 'ten' }),
    ].join('\n');
    const job = await importFile(env(), who, csv);
    expect(job.status).toBe('ready');
    expect(job.summary).toEqual({ create: 1, update: 1, unchanged: 1, invalid: 7 });
    expect(job.errors).toEqual([
      { row: 5, column: 'sku', message: 'SKU is required: every row is matched to a product by its SKU' },
      { row: 6, column: 'minquantity', message: 'Min buy quantity must be a multiple of the case pack (4)' },
      { row: 7, column: 'category', message: 'Choose one of the six categories' },
      { row: 8, column: 'sku', message: 'The SKU DUP-1 is on more than one row (rows 8, 9)' },
      { row: 9, column: 'sku', message: 'The SKU dup-1 is on more than one row (rows 8, 9)' },
      { row: 10, column: 'tiers', message: 'Must be less than the price ($12)' },
      { row: 11, column: 'image', message: 'Image must be an https URL or a path on this site (starting with /)' },
      { row: 11, column: 'price', message: 'Price must be a number' },
    ]);

    const changes = await env().request({ method: 'GET', url: `/api/catalog-imports/${job.id}/changes`, headers: asUser(who) });
    const rows = changes.json() as CatalogRowChange[];
    expect(rows.map((r) => [r.row, r.action, r.sku])).toEqual([
      [2, 'create', 'NEW-1'],
      [3, 'update', 'upd-1'],
    ]);
    expect(rows[1]!.changes).toEqual(
      expect.arrayContaining([
        { column: 'name', from: 'Old name', to: 'New name' },
        { column: 'price', from: '12.00', to: '11.50' },
      ]),
    );

    const errorsCsv = await env().request({ method: 'GET', url: `/api/catalog-imports/${job.id}/errors.csv`, headers: asUser(who) });
    expect(errorsCsv.statusCode).toBe(200);
    const lines = errorsCsv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(`${HEADER},row,error`);
    expect(lines).toHaveLength(8);
    expect(lines[2]).toContain(',6,minquantity: Min buy quantity must be a multiple of the case pack (4)');

    // Nothing has changed before the apply.
    expect((await readProductRow(env(), existing._id))?.name).toBe('Old name');
    const applied = await apply(env(), who, job.id);
    expect(applied).toMatchObject({ status: 'applied', progress: { done: 2, total: 2 }, canUndo: true });
    const after = await ownProducts(env(), who);
    expect(after.find((p) => p._id === existing._id)).toMatchObject({ name: 'New name', price: 11.5, sku: 'upd-1' });
    expect(after.find((p) => p.sku === 'NEW-1')).toMatchObject({ name: 'Kettle NEW-1', price: 12, mainquantity: 500, rating: null });
    expect(after).toHaveLength(3);
  });

  it('takes semicolons, a BOM, columns in any order and CRLF; refuses unknown, repeated and missing columns by name', async () => {
    const who = await signUpUser(env(), { name: 'Format Seller' });
    const semicolon =
      '\uFEFFname;sku;category;brandname;minquantity;mainquantity;image\r\nBolts;B-1;Industrial Machinery & Tools;Acme;10;100;/images/b.webp\r\n';
    const job = await importFile(env(), who, semicolon);
    expect(job).toMatchObject({ status: 'ready', summary: { create: 1, invalid: 0 } });

    const cases: Array<[string, string]> = [
      [
        `${HEADER},colour\n`,
        'Unknown column "colour". The columns are: sku, name, category, brandname, price, minquantity, casepack, mainquantity, discount, tiers, description, image, image2, image3, content.',
      ],
      [`${HEADER},SKU\n`, 'The column "sku" appears more than once in the header.'],
      ['sku,name\nA,B\n', 'Missing required columns: category, brandname, minquantity, mainquantity, image.'],
      [`${HEADER}\n`, 'The file has a header row but no products.'],
    ];
    for (const [csv, reason] of cases) {
      expect(await importFile(env(), who, csv)).toMatchObject({ status: 'failed', reason });
    }
  });

  it('answers hostile files with a clear failure and no change, never a stuck job', async () => {
    const who = await signUpUser(env(), { name: 'Hostile Seller' });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(HEADER, 'utf16le')]);
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]);
    const tooMany = `${HEADER}\n${'x\n'.repeat(100_001)}`;
    const cases: Array<[string | Buffer, string]> = [
      [utf16, 'The file is UTF-16 text. Save it as "CSV UTF-8" and upload it again.'],
      [zip, 'The file is a zip archive (perhaps an .xlsx workbook), not CSV. Save it as "CSV UTF-8" and upload it again.'],
      [Buffer.from(`${HEADER}\nA\u0000B\n`), 'The file holds binary data (NUL bytes), not CSV text.'],
      [Buffer.from([0xc3, 0x28, 0x0a]), 'The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.'],
      [`${HEADER}\nQ-1,"open quote,x\n`, 'A quote is left open (line 2): the file ends inside a quoted cell.'],
      [tooMany, 'The file has more than 100,000 rows. Split it into smaller files.'],
    ];
    for (const [csv, reason] of cases) {
      expect(await importFile(env(), who, csv)).toMatchObject({ status: 'failed', reason });
    }
    // A 1 MB cell, a row cut short and mixed line endings are errors on their own rows.
    const rows = `${HEADER}\r\n${csvRow('BIG', { description: 'x'.repeat(1_000_000) })}\n${csvRow('OK-1')}\r${csvRow('CUT').split(',').slice(0, 4).join(',')}`;
    const job = await importFile(env(), who, rows);
    expect(job.summary).toEqual({ create: 1, update: 0, unchanged: 0, invalid: 2 });
    expect(job.errors).toEqual([
      { row: 2, column: 'description', message: 'Cell is longer than 10,000 characters' },
      { row: 4, column: 'row', message: 'The row has 4 cells; the header has 15 columns' },
    ]);
    expect(await ownProducts(env(), who)).toHaveLength(0);
  });

  it('refuses an empty file, a body that is not multipart, and an upload cut off midway, with no job left', async () => {
    const empty = await upload(env(), seller, '');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.message).toBe('The file is empty. Choose a CSV file with a header row and one product a row.');
    const json = await env().request({ method: 'POST', url: '/api/catalog-imports', headers: asUser(seller), payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    const body = multipartBody(Buffer.from(`${HEADER}\n${csvRow('CUT-1')}\n`), { field: 'file', filename: 'c.csv', type: 'text/csv' });
    const cut = await env().request({
      method: 'POST',
      url: '/api/catalog-imports',
      headers: { ...asUser(seller), ...body.headers },
      payload: body.payload.subarray(0, body.payload.length - 40),
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().error.message).toBe('The upload was cut off or malformed. Try again.');
    const list = await env().request({ method: 'GET', url: '/api/catalog-imports', headers: asUser(seller) });
    expect(list.json()).toEqual([]);
  });

  it('refuses a file one byte over 50 MB with 413 once the limit is passed mid-stream, and leaves no job or stored piece behind', async () => {
    const who = await signUpUser(env(), { name: 'Oversize Seller' });
    const head = Buffer.from(`${HEADER}\n`);
    const over = Buffer.concat([head, Buffer.alloc(50 * 1024 * 1024 + 1 - head.length, 'x')]);
    const response = await upload(env(), who, over);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toBe('The file is larger than 50 MB. Split it into smaller files.');
    expect((await env().request({ method: 'GET', url: '/api/catalog-imports', headers: asUser(who) })).json()).toEqual([]);
    const [pieces] = await queryRows<{ n: number }>(
      env().db(),
      sql`SELECT count(*)::int AS n FROM catalog_import_chunks c JOIN catalog_imports j ON j.id = c.import_id WHERE j.seller_id = ${who.id}`,
    );
    expect(pieces?.n).toBe(0);
  }, 120_000);

  it('shows a seller only their own jobs: another seller gets 404 on every route, and signed-out callers 401', async () => {
    const job = await importFile(env(), seller, `${HEADER}\n${csvRow('OWN-1')}\n`);
    for (const [method, url] of [
      ['GET', `/api/catalog-imports/${job.id}`],
      ['GET', `/api/catalog-imports/${job.id}/errors.csv`],
      ['GET', `/api/catalog-imports/${job.id}/changes`],
      ['POST', `/api/catalog-imports/${job.id}/apply`],
      ['POST', `/api/catalog-imports/${job.id}/undo`],
      ['GET', '/api/catalog-imports/not-a-uuid'],
    ] as const) {
      const response = await env().request({ method, url, headers: asUser(other) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error.message).toBe('This import does not exist.');
      expect((await env().request({ method, url })).statusCode).toBe(url.includes('not-a-uuid') ? 404 : 401);
    }
    expect((await env().request({ method: 'GET', url: '/api/catalog-imports', headers: asUser(other) })).json()).toEqual([]);
    expect((await env().request({ method: 'GET', url: '/api/my/catalog.csv' })).statusCode).toBe(401);
    expect(await settled(env(), seller, job.id)).toMatchObject({ status: 'ready' });
  });

  it('applies once: applying again is refused, and importing the same file again changes nothing', async () => {
    const who = await signUpUser(env(), { name: 'Twice Seller' });
    const csv = `${HEADER}\n${csvRow('TW-1')}\n${csvRow('TW-2', { price: '3.10' })}\n`;
    const first = await importFile(env(), who, csv);
    expect((await apply(env(), who, first.id)).status).toBe('applied');
    const again = await env().request({ method: 'POST', url: `/api/catalog-imports/${first.id}/apply`, headers: asUser(who) });
    expect(again.statusCode).toBe(409);
    const before = await ownProducts(env(), who);
    const second = await importFile(env(), who, csv);
    expect(second.summary).toEqual({ create: 0, update: 0, unchanged: 2, invalid: 0 });
    expect(await apply(env(), who, second.id)).toMatchObject({ status: 'applied', progress: { done: 0, total: 0 } });
    expect(await ownProducts(env(), who)).toEqual(before);
  });

  it('undoes the latest applied import: updated products back as before, created ones removed, ordered ones unlisted', async () => {
    const who = await signUpUser(env(), { name: 'Undo Seller' });
    const buyer = await signUpUser(env(), { name: 'Undo Buyer' });
    const kept = await addProduct(env(), who, { sku: 'KEEP-1', name: 'Kept as it was', price: 7, mainquantity: 40 });
    const rowBefore = await readProductRow(env(), kept._id);
    const csv = `${HEADER}\n${csvRow('KEEP-1', { name: 'Changed', price: '6.00', mainquantity: '999' })}\n${csvRow('GONE-1')}\n${csvRow('SOLD-1')}\n`;
    const job = await apply(env(), who, (await importFile(env(), who, csv)).id);
    expect(job.status).toBe('applied');
    const sold = (await ownProducts(env(), who)).find((p) => p.sku === 'SOLD-1')!;
    const order = await env().request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId: sold._id, quantity: 20 } });
    expect(order.statusCode, order.body).toBe(201);

    const undone = await undo(env(), who, job.id);
    expect(undone.statusCode, undone.body).toBe(200);
    const result = undone.json() as CatalogUndoResult;
    expect(result).toMatchObject({ restored: 1, removed: 1, unlisted: 1, import: { status: 'undone', canUndo: false } });
    const rowAfter = await readProductRow(env(), kept._id);
    expect({ ...rowAfter, updatedAt: null, updatedBy: null }).toEqual({ ...rowBefore, updatedAt: null, updatedBy: null });
    const left = await ownProducts(env(), who);
    expect(left.map((p) => p.sku).sort()).toEqual(['KEEP-1', 'SOLD-1']);
    // Unlisted, not emptied: its seller sees it with its stock; buyers no longer see it; its order stands.
    expect(left.find((p) => p.sku === 'SOLD-1')).toMatchObject({ _id: sold._id, unlisted: true, mainquantity: 480 });
    expect(left.find((p) => p.sku === 'KEEP-1')).toMatchObject({ unlisted: false });
    expect((await env().request({ method: 'GET', url: `/api/product/${sold._id}` })).statusCode).toBe(404);
    const search = (await env().request({ method: 'GET', url: '/api/search?q=kettle&limit=100' })).json() as { items: Product[] };
    expect(search.items.map((p) => p._id)).not.toContain(sold._id);
    expect(await cellsDifferingFromProducts(env().db())).toBe(0);
    const orderId = (order.json() as { _id: string })._id;
    expect((await env().request({ method: 'GET', url: `/api/order/${orderId}`, headers: asUser(buyer) })).json()).toMatchObject({ _id: orderId, quantity: 20 });
    expect((await undo(env(), who, job.id)).statusCode).toBe(409);

    // A later import matches the unlisted product by its SKU and updates it; only relisting lists it.
    const later = await apply(env(), who, (await importFile(env(), who, `${HEADER}\n${csvRow('SOLD-1', { price: '13.00', mainquantity: '480' })}\n`)).id);
    expect(later.summary).toMatchObject({ create: 0, update: 1 });
    expect((await ownProducts(env(), who)).find((p) => p.sku === 'SOLD-1')).toMatchObject({ _id: sold._id, unlisted: true, price: 13 });
    expect((await env().request({ method: 'GET', url: `/api/product/${sold._id}` })).statusCode).toBe(404);
  });

  it('undoes only the latest applied import, within 24 hours', async () => {
    const who = await signUpUser(env(), { name: 'Undo Window Seller' });
    const first = await apply(env(), who, (await importFile(env(), who, `${HEADER}\n${csvRow('W-1')}\n`)).id);
    const second = await apply(env(), who, (await importFile(env(), who, `${HEADER}\n${csvRow('W-2')}\n`)).id);
    expect(first.canUndo).toBe(true);
    expect((await getJob(env(), who, first.id)).json()).toMatchObject({ canUndo: false });
    const older = await undo(env(), who, first.id);
    expect(older.statusCode).toBe(409);
    expect(older.json().error.message).toBe('Only your latest applied import can be undone; undo the later one first.');
    await env()
      .db()
      .update(catalogImports)
      .set({ appliedAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(catalogImports.id, second.id));
    const late = await undo(env(), who, second.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe('An import can be undone within 24 hours of applying it; this one is older.');
    expect((await ownProducts(env(), who)).map((p) => p.sku).sort()).toEqual(['W-1', 'W-2']);
  });

  it('runs one job per seller at a time, and a job left by a stopped process is taken up again and finished', async () => {
    const who = await signUpUser(env(), { name: 'Restart Seller' });
    const file = Buffer.from(`${HEADER}\n${csvRow('RS-1')}\n${csvRow('RS-2')}\n`);
    // A job another process holds (its lease is live): this process neither takes it nor starts a second one.
    const [held] = await env()
      .db()
      .insert(catalogImports)
      .values({ sellerId: who.id, sellerEmail: who.email, fileName: 'held.csv', uploadedAt: new Date(), leaseUntil: sql`now() + interval '1 hour'` })
      .returning();
    await env().db().insert(catalogImportChunks).values({ importId: held!.id, seq: 0, bytes: file });
    const busy = await upload(env(), who, file);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.message).toBe('An import of yours is still running. Wait for it to finish, then upload the next file.');
    expect(await runCatalogJobs(env().db(), () => new Date(), held!.id)).toBe(0);

    // That process stopped mid-validation: its lease runs out, and the next sweep finishes the job.
    await env()
      .db()
      .update(catalogImports)
      .set({ leaseUntil: sql`now() - interval '1 second'`, done: 1, total: 2 })
      .where(eq(catalogImports.id, held!.id));
    expect(await runCatalogJobs(env().db(), () => new Date(), held!.id)).toBe(1);
    expect((await getJob(env(), who, held!.id)).json()).toMatchObject({ status: 'ready', summary: { create: 2 }, progress: { done: 2, total: 2 } });

    // Stopped mid-apply, after writing the first row: the sweep writes the rest, the first row once.
    const start = await env().request({ method: 'POST', url: `/api/catalog-imports/${held!.id}/apply`, headers: asUser(who) });
    expect(start.statusCode).toBe(202);
    const applied = await settled(env(), who, held!.id);
    expect(applied.status).toBe('applied');
    await env()
      .db()
      .update(catalogImports)
      .set({ status: 'applying', leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(catalogImports.id, held!.id));
    await env()
      .db()
      .execute(sql`UPDATE catalog_import_rows SET applied_at = NULL WHERE import_id = ${held!.id} AND row_number = 3`);
    await env()
      .db()
      .delete(products)
      .where(sql`owner_id = ${who.id} AND sku = 'RS-2'`);
    expect(await runCatalogJobs(env().db(), () => new Date())).toBeGreaterThanOrEqual(1);
    expect((await getJob(env(), who, held!.id)).json()).toMatchObject({ status: 'applied', progress: { done: 2, total: 2 } });
    expect((await ownProducts(env(), who)).map((p) => p.sku).sort()).toEqual(['RS-1', 'RS-2']);
  });

  it('tells the kept catalog answers after each batch of products it applies', async () => {
    const who = await signUpUser(env(), { name: 'Batch Signal Seller' });
    const ready = await importFile(env(), who, `${HEADER}\n${csvRow('BS-1')}\n${csvRow('BS-2')}\n`);
    expect(ready.status).toBe('ready');
    // Applied by the background sweep (as when another process took the job over), not by a request.
    await env()
      .db()
      .update(catalogImports)
      .set({ status: 'applying', leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(catalogImports.id, ready.id));
    let told = 0;
    expect(
      await runCatalogJobs(
        env().db(),
        () => new Date(),
        ready.id,
        undefined,
        () => {
          told += 1;
        },
      ),
    ).toBe(1);
    expect(told).toBe(1);
    expect((await getJob(env(), who, ready.id)).json()).toMatchObject({ status: 'applied' });
    expect((await ownProducts(env(), who)).map((p) => p.sku).sort()).toEqual(['BS-1', 'BS-2']);
  });

  it('fails a job whose upload stopped midway (its process died) once its lease lapses, and drops the pieces it stored', async () => {
    const who = await signUpUser(env(), { name: 'Stopped Upload Seller' });
    const [stopped] = await env()
      .db()
      .insert(catalogImports)
      .values({ sellerId: who.id, sellerEmail: who.email, fileName: 'half.csv', leaseUntil: sql`now() + interval '1 hour'` })
      .returning();
    await env()
      .db()
      .insert(catalogImportChunks)
      .values({ importId: stopped!.id, seq: 0, bytes: Buffer.from(`${HEADER}\n${csvRow('HALF-1')}\n`) });
    // While the uploading process holds it, nobody else touches it.
    expect(await runCatalogJobs(env().db(), () => new Date(), stopped!.id)).toBe(0);
    await env()
      .db()
      .update(catalogImports)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(catalogImports.id, stopped!.id));
    expect(await runCatalogJobs(env().db(), () => new Date(), stopped!.id)).toBe(1);
    expect((await getJob(env(), who, stopped!.id)).json()).toMatchObject({
      status: 'failed',
      reason: 'The upload stopped before the whole file arrived. Upload the file again.',
    });
    expect(await env().db().select().from(catalogImportChunks).where(eq(catalogImportChunks.importId, stopped!.id))).toEqual([]);
    expect(await ownProducts(env(), who)).toEqual([]);
  });

  it('answers 503 to an upload whose process lost its lease midway, and leaves no job or piece behind', async () => {
    const who = await signUpUser(env(), { name: 'Lease Lost Seller' });
    // About 2.5 MB: the first piece is stored while the body is still coming.
    const rows = Array.from({ length: 9_000 }, (_, i) => csvRow(`LL-${i}`, { description: 'y'.repeat(200) }));
    const body = multipartBody(Buffer.from(`${HEADER}\n${rows.join('\n')}\n`), { field: 'file', filename: 'lease.csv', type: 'text/csv' });
    const sent = new PassThrough();
    const answer = env().request({ method: 'POST', url: '/api/catalog-imports', headers: { ...asUser(who), ...body.headers }, payload: sent });
    const half = Math.floor(body.payload.length / 2);
    sent.write(body.payload.subarray(0, half));
    const storedPieces = async () =>
      queryRows<{ id: string; pieces: number }>(
        env().db(),
        sql`SELECT j.id, count(c.seq)::int AS pieces FROM catalog_imports j LEFT JOIN catalog_import_chunks c ON c.import_id = j.id
            WHERE j.seller_id = ${who.id} GROUP BY j.id`,
      );
    let job = (await storedPieces())[0];
    for (let i = 0; i < 1_000 && !job?.pieces; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      job = (await storedPieces())[0];
    }
    expect(job?.pieces).toBeGreaterThanOrEqual(1);
    // This process stalled past its lease and another one took the job over.
    await env()
      .db()
      .update(catalogImports)
      .set({ claimedBy: 'another-process', leaseUntil: sql`now() + interval '1 hour'` })
      .where(eq(catalogImports.id, job!.id));
    sent.end(body.payload.subarray(half));
    const response = await answer;
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json().error).toMatchObject({
      title: 'Upload interrupted',
      message: 'The upload was interrupted on the server before the whole file was stored; nothing was imported. Upload the file again.',
    });
    expect(await env().db().select().from(catalogImports).where(eq(catalogImports.sellerId, who.id))).toEqual([]);
    expect(await env().db().select().from(catalogImportChunks).where(eq(catalogImportChunks.importId, job!.id))).toEqual([]);
    // Nothing of it is in the way: the same file uploaded again is checked as any other.
    expect(await importFile(env(), who, `${HEADER}\n${rows.slice(0, 3).join('\n')}\n`)).toMatchObject({ status: 'ready', summary: { create: 3 } });
  }, 60_000);

  it('stores a file of several pieces and reads it back in order, a character cut between two pieces included', async () => {
    const who = await signUpUser(env(), { name: 'Large File Seller' });
    // About 2.5 MB: three pieces, each boundary most likely inside a row (and the é may fall across one).
    const rows = Array.from({ length: 9_000 }, (_, i) => csvRow(`LF-${i}`, { description: `Caf\u00e9 ${'x'.repeat(200)}` }));
    const job = await importFile(env(), who, `${HEADER}\n${rows.join('\n')}\n`);
    expect(job).toMatchObject({ status: 'ready', summary: { create: 9_000, invalid: 0 }, progress: { done: 9_000, total: 9_000 } });
    expect(await env().db().select().from(catalogImportChunks).where(eq(catalogImportChunks.importId, job.id))).toEqual([]);
  }, 120_000);

  it('keeps the search facet cells equal to the products when an import creates, and its undo removes, many products in one cell', async () => {
    const who = await signUpUser(env(), { name: 'One Cell Seller' });
    // 1,200 rows of one category, brand and MOQ: three apply batches into the same two cells (in stock or not).
    const rows = Array.from({ length: 1_200 }, (_, i) =>
      csvRow(`CELL-${i}`, {
        brandname: 'OneCellBrand',
        price: i % 7 === 0 ? '' : `${(i % 40) + 1}.${String(i % 100).padStart(2, '0')}`,
        mainquantity: i % 5 === 0 ? '0' : '500',
        discount: i % 7 === 0 ? '0' : String(i % 3),
      }),
    );
    const job = await apply(env(), who, (await importFile(env(), who, `${HEADER}\n${rows.join('\n')}\n`)).id);
    expect(job).toMatchObject({ status: 'applied', progress: { done: 1_200, total: 1_200 } });
    expect(await cellsDifferingFromProducts(env().db())).toBe(0);
    const [cells] = await queryRows<{ n: number }>(
      env().db(),
      sql`SELECT sum(cardinality(prices) + unpriced)::int AS n FROM search_facet_cells WHERE brandname = 'OneCellBrand'`,
    );
    expect(cells?.n).toBe(1_200);
    // The same file with new prices: 1,200 updates moving prices within the cells.
    const repriced = rows.map((row, i) => row.replace(/^(CELL-\d+,[^,]*,"[^"]*",OneCellBrand,)[^,]*/, `$1${(i % 11) + 2}.50`));
    const update = await apply(env(), who, (await importFile(env(), who, `${HEADER}\n${repriced.join('\n')}\n`)).id);
    expect(update).toMatchObject({ status: 'applied', summary: { update: 1_200 } });
    expect(await cellsDifferingFromProducts(env().db())).toBe(0);
    expect((await undo(env(), who, update.id)).statusCode).toBe(200);
    expect(await cellsDifferingFromProducts(env().db())).toBe(0);
    await env().db().delete(products).where(eq(products.ownerId, who.id));
    expect(await cellsDifferingFromProducts(env().db())).toBe(0);
    const [left] = await queryRows<{ n: number }>(env().db(), sql`SELECT count(*)::int AS n FROM search_facet_cells WHERE brandname = 'OneCellBrand'`);
    expect(left?.n).toBe(0);
  }, 120_000);

  it('lists the seller’s last 20 imports, newest first', async () => {
    const who = await signUpUser(env(), { name: 'History Seller' });
    for (let i = 0; i < 21; i += 1) await importFile(env(), who, `${HEADER}\n`);
    const list = (await env().request({ method: 'GET', url: '/api/catalog-imports', headers: asUser(who) })).json() as CatalogImport[];
    expect(list).toHaveLength(20);
    expect(list.every((j) => j.status === 'failed')).toBe(true);
  });
});
