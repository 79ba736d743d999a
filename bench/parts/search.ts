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

/** What a buyer types (docs/decisions/009-search.md): a common word, a rare one, a typo, filters; and the search box's keystrokes. */
const PLAN: Array<{ label: string; path: string; query?: string; suggest?: string }> = [
  { label: 'search: common word (gloves, ~2,400 matches)', path: '/api/search?q=gloves&limit=48', query: 'q=gloves&limit=48' },
  { label: 'search: rare word (zeppelin, 10 matches)', path: '/api/search?q=zeppelin&limit=48', query: 'q=zeppelin&limit=48' },
  { label: 'search: typo (glovs)', path: '/api/search?q=glovs&limit=48', query: 'q=glovs&limit=48' },
  { label: 'search: two words, one misspelt (heavy stapelr)', path: '/api/search?q=heavy%20stapelr&limit=48', query: 'q=heavy stapelr&limit=48' },
  { label: 'search: facet-heavy filter, no words', path: `/api/search?${FACET_HEAVY}&limit=48`, query: `${FACET_HEAVY}&limit=48` },
  { label: 'search: common word + facet-heavy filter', path: `/api/search?q=gloves&${FACET_HEAVY}&limit=48`, query: `q=gloves&${FACET_HEAVY}&limit=48` },
  { label: 'suggest: "gl"', path: '/api/search/suggest?q=gl', suggest: 'gl' },
  { label: 'suggest: "stap"', path: '/api/search/suggest?q=stap', suggest: 'stap' },
];

export interface SearchRun {
  database: string;
  size: number;
  seeded: { products: number; seconds: number };
  lines: Array<{ label: string; path: string; latency: LatencyResult }>;
  explained: ExplainedQuery[];
}

function explainSteps(): Array<{ label: string; run: (db: Db) => Promise<unknown> }> {
  return PLAN.map((step) => ({
    label: step.label,
    run: (db: Db) =>
      step.suggest !== undefined
        ? suggest({ db }, step.suggest)
        : searchProducts({ db }, searchQuerySchema.parse(Object.fromEntries(groupParams(new URLSearchParams(step.query))))),
  }));
}

/** URLSearchParams → the shape Fastify hands a route: repeated keys become arrays. */
function groupParams(params: URLSearchParams): Array<[string, string | string[]]> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  return [...grouped].map(([key, values]) => [key, values.length === 1 ? (values[0] as string) : values]);
}

async function measureOne(context: BenchContext, kind: 'pglite' | 'postgres', size: number): Promise<SearchRun> {
  const { target, remove } = await createBenchDatabase(context.pgAdminUrl, kind, `search_${size}`);
  const database = DATABASE_LABEL[kind];
  try {
    let server = await startServerProcess({ database: target, name: `search-${size}` });
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
    if (kind === 'pglite') server = await startServerProcess({ database: target, name: `search-${size}` });
    const lines: SearchRun['lines'] = [];
    try {
      for (const step of PLAN) {
        lines.push({ label: step.label, path: step.path, latency: await measureSequential(`${server.url}${step.path}`, {}, REQUESTS, WARMUP_REQUESTS) });
        context.log(`search ${database}: ${step.label} p50 ${lines.at(-1)?.latency.p50.toFixed(2)} ms`);
      }
    } finally {
      await server.stop();
    }
    const explained = await explainQueries(target, explainSteps());
    return { database, size, seeded: { products: seeded.products, seconds: seeded.seconds }, lines, explained };
  } finally {
    remove();
  }
}

/** Part "search": one client's search and suggestion requests on a seeded catalog, both databases. */
export async function measureSearch(context: BenchContext, size: number): Promise<SearchRun[]> {
  const runs: SearchRun[] = [];
  for (const kind of context.databases) runs.push(await measureOne(context, kind, size));
  return runs;
}
