import os from 'node:os';
import { searchQuerySchema } from '@bulkcart/contracts';
import { signUp } from '../lib/accounts.ts';
import { createBenchDatabase, withSql } from '../lib/databases.ts';
import { explainQueries, type ExplainedQuery } from '../lib/explain.ts';
import { measureSequential, type LatencyResult } from '../lib/latency.ts';
import { startServerProcess } from '../lib/processes.ts';
import { DATABASE_LABEL, type BenchContext } from '../lib/context.ts';
import { seedCatalog } from '../seed-catalog.ts';
import { searchProducts, suggest } from '../../apps/server/src/modules/search/search.service.ts';
import type { Db } from '../../apps/server/src/db/client.ts';

const REQUESTS = 300;
const WARMUP_REQUESTS = 30;

/** Facet-heavy: two categories, three brands, stock, MOQ and a price band, cheapest first. */
const FACET_HEAVY =
  'category=Electronics%20%26%20Gadgets&category=Office%20Supplies%20%26%20Stationery&brand=Brand%203&brand=Brand%2017&brand=Brand%2042&inStock=true&maxMoq=50&minPrice=5&maxPrice=300&sort=price_asc';

/** What a buyer types (docs/decisions/009-search.md): a common word, a rare one, a typo, filters, none at all (browsing); and the search box's keystrokes. */
const PLAN: Array<{ label: string; path: string; query?: string; suggest?: string }> = [
  { label: 'search: common word (gloves, ~2,400 matches)', path: '/api/search?q=gloves&limit=48', query: 'q=gloves&limit=48' },
  { label: 'search: rare word (zeppelin, 10 matches)', path: '/api/search?q=zeppelin&limit=48', query: 'q=zeppelin&limit=48' },
  { label: 'search: typo (glovs)', path: '/api/search?q=glovs&limit=48', query: 'q=glovs&limit=48' },
  { label: 'search: two words, one misspelt (heavy stapelr)', path: '/api/search?q=heavy%20stapelr&limit=48', query: 'q=heavy stapelr&limit=48' },
  { label: 'search: facet-heavy filter, no words', path: `/api/search?${FACET_HEAVY}&limit=48`, query: `${FACET_HEAVY}&limit=48` },
  { label: 'search: common word + facet-heavy filter', path: `/api/search?q=gloves&${FACET_HEAVY}&limit=48`, query: `q=gloves&${FACET_HEAVY}&limit=48` },
  { label: 'search: no words, no filters (facets over the whole catalog)', path: '/api/search?sort=newest&limit=48', query: 'sort=newest&limit=48' },
  { label: 'suggest: "gl"', path: '/api/search/suggest?q=gl', suggest: 'gl' },
  { label: 'suggest: "stap"', path: '/api/search/suggest?q=stap', suggest: 'stap' },
];

/**
 * The same search made new on every request, so no answer cache (search-cache.ts) can serve it: a
 * price bound that excludes nothing (bench prices are whole dollars from $1 to $500) and differs by a
 * cent each time. The facet-heavy filter already has a price band: its ends move by cents instead.
 */
function uncached(path: string): (i: number) => string {
  if (path.includes('maxPrice=300')) {
    return (i) =>
      path
        .replace('minPrice=5', `minPrice=${(4.01 + (i % 100) / 100).toFixed(2)}`)
        .replace('maxPrice=300', `maxPrice=${(300 + Math.floor(i / 100) / 100).toFixed(2)}`);
  }
  return (i) => `${path}&maxPrice=${(1000 + i / 100).toFixed(2)}`;
}

/** Every line measured: the plan as it is, then each search again with every request a new query. */
const LINES: Array<{ label: string; url: string | ((i: number) => string) }> = [
  ...PLAN.map((step) => ({ label: step.label, url: step.path })),
  ...PLAN.filter((step) => step.query !== undefined).map((step) => ({ label: `${step.label}, every request new (uncached)`, url: uncached(step.path) })),
];

export interface SearchLine {
  label: string;
  latency: LatencyResult;
  /** 1-minute load average when the line started. */
  load: number;
  /** The same line on --search-compare-root's server, measured just before this one. */
  before?: { latency: LatencyResult; load: number };
}

export interface SearchRun {
  database: string;
  size: number;
  seeded: { products: number; seconds: number };
  lines: SearchLine[];
  explained: ExplainedQuery[];
  compareRoot?: string;
}

function explainSteps(): Array<{ label: string; run: (db: Db) => Promise<unknown> }> {
  return PLAN.map((step) => ({
    label: step.label,
    // A search twice: the statements of a first answer, then those of the same answer from the cache.
    run: async (db: Db) => {
      if (step.suggest !== undefined) return suggest({ db }, step.suggest);
      const query = searchQuerySchema.parse(Object.fromEntries(groupParams(new URLSearchParams(step.query))));
      await searchProducts({ db }, query);
      return searchProducts({ db }, query);
    },
  }));
}

/** URLSearchParams → the shape Fastify hands a route: repeated keys become arrays. */
function groupParams(params: URLSearchParams): Array<[string, string | string[]]> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  return [...grouped].map(([key, values]) => [key, values.length === 1 ? (values[0] as string) : values]);
}

async function measureLine(url: string, line: (typeof LINES)[number]): Promise<{ latency: LatencyResult; load: number }> {
  const load = os.loadavg()[0] ?? Number.NaN;
  const target = typeof line.url === 'string' ? `${url}${line.url}` : (i: number) => `${url}${(line.url as (i: number) => string)(i)}`;
  return { latency: await measureSequential(target, {}, REQUESTS, WARMUP_REQUESTS), load };
}

async function measureOne(context: BenchContext, kind: 'pglite' | 'postgres', size: number, compareRoot: string | undefined): Promise<SearchRun> {
  const { target, remove } = await createBenchDatabase(context.pgAdminUrl, kind, `search_${size}`);
  const database = DATABASE_LABEL[kind];
  const name = `search-${size}`;
  try {
    let server = await startServerProcess({ database: target, name });
    let seller;
    let buyer;
    try {
      seller = await signUp(server.url, 'Search Seller', 'seller');
      buyer = await signUp(server.url, 'Search Buyer', 'buyer');
    } finally {
      if (kind === 'pglite') await server.stop();
    }
    context.log(`search ${database} ${size}: seeding`);
    const seeded = await withSql(target, (query) => seedCatalog(query, { products: size, seller, buyer, buyerOrders: 100 }));
    context.log(`search ${database} ${size}: seeded ${seeded.products} products in ${seeded.seconds.toFixed(1)} s`);
    const lines: SearchLine[] = [];
    // PGlite: one process at a time on a folder, so with a comparison each line starts its servers.
    const holdServers = kind === 'postgres' || compareRoot === undefined;
    let before =
      compareRoot !== undefined && holdServers ? await startServerProcess({ database: target, name: `${name}-before`, root: compareRoot }) : undefined;
    if (kind === 'pglite' && holdServers) server = await startServerProcess({ database: target, name });
    try {
      for (const line of LINES) {
        let compared: SearchLine['before'];
        if (compareRoot !== undefined) {
          if (!holdServers) before = await startServerProcess({ database: target, name: `${name}-before`, root: compareRoot });
          compared = await measureLine(before!.url, line);
          if (!holdServers) await before!.stop();
        }
        if (!holdServers) server = await startServerProcess({ database: target, name });
        lines.push({ label: line.label, ...(await measureLine(server.url, line)), ...(compared ? { before: compared } : {}) });
        if (!holdServers) await server.stop();
        context.log(
          `search ${database}: ${line.label} p50 ${compared ? `${compared.latency.p50.toFixed(2)} → ` : ''}${lines.at(-1)?.latency.p50.toFixed(2)} ms`,
        );
      }
    } finally {
      if (holdServers) {
        await server.stop();
        await before?.stop();
      }
    }
    const explained = await explainQueries(target, explainSteps());
    return { database, size, seeded: { products: seeded.products, seconds: seeded.seconds }, lines, explained, ...(compareRoot ? { compareRoot } : {}) };
  } finally {
    remove();
  }
}

/** Part "search": one client's search and suggestion requests on a seeded catalog, both databases. */
export async function measureSearch(context: BenchContext, size: number, compareRoot?: string): Promise<SearchRun[]> {
  const runs: SearchRun[] = [];
  for (const kind of context.databases) runs.push(await measureOne(context, kind, size, compareRoot));
  return runs;
}
