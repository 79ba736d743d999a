import { sql } from 'drizzle-orm';
import { signUp, bearer, type BenchUser } from '../lib/accounts.ts';
import { createBenchDatabase, withSql } from '../lib/databases.ts';
import { explainQueries, type ExplainedQuery } from '../lib/explain.ts';
import { httpRequest, readNextLink } from '../lib/http.ts';
import { measureSequential, type LatencyResult } from '../lib/latency.ts';
import { startServerProcess, type ChildServer } from '../lib/processes.ts';
import { DATABASE_LABEL, type BenchContext } from '../lib/context.ts';
import { seedCatalog } from '../seed-catalog.ts';
import { selectProductPage, selectTopRated } from '../../apps/server/src/modules/products/products.queries.ts';
import { listOrders } from '../../apps/server/src/modules/orders/orders.service.ts';
import { decodeCursor } from '../../apps/server/src/lib/pagination.ts';

const CATEGORY = 'Electronics & Gadgets';
const DEPTH = 1_000;
const REQUESTS = 300;
const WARMUP_REQUESTS = 30;

export interface ScaleLine {
  label: string;
  path: string;
  latency: LatencyResult;
}

export interface ScaleRun {
  database: string;
  size: number;
  seeded: { products: number; orders: number; seconds: number };
  lines: ScaleLine[];
  /** How deep the "deep" category page really is (a small catalog's category may hold fewer). */
  categoryDepth: number;
  explained: ExplainedQuery[];
  restRssMiB: number;
  afterRssMiB: number;
}

async function readPage(server: ChildServer, path: string, limit: number): Promise<{ count: number; next: string | null }> {
  const url = new URL(path, server.url);
  url.searchParams.set('limit', String(limit));
  const answer = await httpRequest(url.toString());
  if (answer.status !== 200) throw new Error(`GET ${url} → ${answer.status}`);
  return { count: (JSON.parse(answer.body.toString('utf8')) as unknown[]).length, next: readNextLink(answer.headers) };
}

/**
 * The path of a full page of 48 that starts `depth` items down the list, reached by following next
 * links as a client does; a list too short for that gives its deepest full page instead.
 */
async function walkToDepth(server: ChildServer, firstPath: string, wanted: number): Promise<{ path: string; depth: number }> {
  let available = 0;
  for (let path: string | null = firstPath; path && available < wanted + 48; ) {
    const page = await readPage(server, path, 200);
    available += page.count;
    path = page.next;
  }
  const depth = Math.max(0, Math.min(wanted, available - 48));
  let path = firstPath;
  for (let skipped = 0; skipped < depth; ) {
    const page = await readPage(server, path, Math.min(200, depth - skipped));
    if (!page.next) throw new Error(`the list ended after ${skipped + page.count} items`);
    skipped += page.count;
    path = page.next;
  }
  const url = new URL(path, server.url);
  url.searchParams.set('limit', '48');
  return { path: `${url.pathname}${url.search}`, depth };
}

async function measureLines(
  server: ChildServer,
  seller: BenchUser,
  buyer: BenchUser,
): Promise<{ lines: ScaleLine[]; categoryDepth: number; deepCursorSeq: number }> {
  const category = encodeURIComponent(CATEGORY);
  const deep = await walkToDepth(server, `/api/allproduct?category=${category}&limit=48`, DEPTH);
  const plan: Array<{ label: string; path: string; headers?: Record<string, string> }> = [
    { label: 'category page, first', path: `/api/allproduct?category=${category}&limit=48` },
    { label: `category page, ${deep.depth.toLocaleString('en-US')} items deep (cursor)`, path: deep.path },
    { label: 'available filter (MOQ > 100), first page', path: '/api/allproduct?available=true&limit=48' },
    { label: 'topproduct', path: '/api/topproduct' },
    { label: "seller's own products (signed in)", path: `/api/products/${encodeURIComponent(seller.email)}`, headers: bearer(seller) },
    { label: "buyer's cart, 1,000 orders (signed in)", path: `/api/orders/${encodeURIComponent(buyer.email)}`, headers: bearer(buyer) },
  ];
  const lines: ScaleLine[] = [];
  for (const step of plan) {
    lines.push({
      label: step.label,
      path: step.path,
      latency: await measureSequential(`${server.url}${step.path}`, step.headers ?? {}, REQUESTS, WARMUP_REQUESTS),
    });
  }
  const cursor = new URL(deep.path, server.url).searchParams.get('cursor') ?? undefined;
  return { lines, categoryDepth: deep.depth, deepCursorSeq: decodeCursor(cursor) ?? 0 };
}

async function measureSize(context: BenchContext, kind: 'pglite' | 'postgres', size: number): Promise<ScaleRun> {
  const { target, remove } = await createBenchDatabase(context.pgAdminUrl, kind, `scale_${size}`);
  const database = DATABASE_LABEL[kind];
  try {
    // Accounts go through the real API; PGlite's folder is then seeded while no server holds it.
    let server = await startServerProcess({ database: target, name: `scale-${size}` });
    let seller: BenchUser;
    let buyer: BenchUser;
    try {
      seller = await signUp(server.url, 'Scale Seller', 'seller');
      buyer = await signUp(server.url, 'Scale Buyer', 'buyer');
    } catch (error) {
      await server.stop();
      throw error;
    }
    if (kind === 'pglite') await server.stop();
    context.log(`scale ${database} ${size}: seeding`);
    const seeded = await withSql(target, (query) => seedCatalog(query, { products: size, seller, buyer, buyerOrders: 1000 }));
    context.log(`scale ${database} ${size}: seeded ${seeded.products} products, ${seeded.orders} orders in ${seeded.seconds.toFixed(1)} s`);
    if (kind === 'pglite') server = await startServerProcess({ database: target, name: `scale-${size}` });
    let measured: Awaited<ReturnType<typeof measureLines>>;
    let restRssMiB: number;
    let afterRssMiB: number;
    try {
      restRssMiB = server.rssMiB();
      measured = await measureLines(server, seller, buyer);
      afterRssMiB = server.rssMiB();
    } finally {
      await server.stop();
    }
    const explained =
      target.kind === 'postgres'
        ? await explainQueries(target, [
            { label: 'category page, first', run: (db) => selectProductPage(db, { category: CATEGORY, beforeSeq: null, take: 49 }) },
            { label: 'category page, deep (cursor)', run: (db) => selectProductPage(db, { category: CATEGORY, beforeSeq: measured.deepCursorSeq, take: 49 }) },
            { label: 'available filter, first page', run: (db) => selectProductPage(db, { availableOnly: true, beforeSeq: null, take: 49 }) },
            { label: 'topproduct', run: (db) => selectTopRated(db, 8) },
            { label: "seller's own products", run: (db) => selectProductPage(db, { ownerEmail: seller.email, beforeSeq: null, take: 49 }) },
            {
              label: "buyer's cart",
              run: (db) =>
                listOrders(
                  {
                    db,
                    clock: () => new Date(),
                    user: { id: buyer.id, email: buyer.email, name: buyer.name, image: null, emailVerified: true, sessionId: 'bench' },
                  },
                  { email: buyer.email, limit: 48 },
                ),
            },
            {
              // The order its partial index is built in (seq DESC NULLS LAST): see docs/benchmarks.md.
              label: "buyer's cart, ordered as orders_buyer_listed_seq_idx is (suggested)",
              run: (db) => db.execute(sql`SELECT * FROM orders WHERE buyer_id = ${buyer.id} AND status <> 'cancelled' ORDER BY seq DESC NULLS LAST LIMIT 49`),
            },
          ])
        : [];
    return { database, size, seeded, lines: measured.lines, categoryDepth: measured.categoryDepth, explained, restRssMiB, afterRssMiB };
  } finally {
    remove();
  }
}

/** Part 3: how server time grows with the catalog, and the plans that keep it flat. */
export async function measureCatalogScale(context: BenchContext, sizes: number[]): Promise<ScaleRun[]> {
  const runs: ScaleRun[] = [];
  for (const kind of [...context.databases].reverse()) {
    for (const size of sizes) runs.push(await measureSize(context, kind, size));
  }
  return runs;
}
