import type { Db } from '../../db/client.ts';

/**
 * Search answers cached in this process, each under the catalog version it was computed at
 * (docs/decisions/009-search.md, "Speed"). The version is a row that migration 0006's triggers change
 * in the same transaction as every product change that can change which products an answer lists,
 * their order, its facets or its corrections; a request reads it first, so a change committed by any
 * process, or by SQL outside the server, makes every older entry unusable for the very next request.
 * What an entry keeps is the answer's shape (the page's product seqs and sort keys, the facets, the
 * corrections), never the products themselves: they are read fresh on every request, so stock and
 * prices are always current.
 *
 * One cache per database handle: two apps in one process on different databases never share one.
 */
const MAX_ENTRIES = 500;

interface Cache<T> {
  version: number;
  entries: Map<string, T>;
}

const caches = new WeakMap<Db, Cache<unknown>>();

function cacheOf<T>(db: Db, version: number): Cache<T> {
  let cache = caches.get(db) as Cache<T> | undefined;
  if (!cache || cache.version !== version) {
    // Another version: every entry is stale (a newer one) or from the future (a slower request that
    // read an older version after this one); either way none may answer a request of this version.
    cache = { version, entries: new Map() };
    caches.set(db, cache as Cache<unknown>);
  }
  return cache;
}

export function cachedAnswer<T>(db: Db, version: number, key: string): T | undefined {
  const { entries } = cacheOf<T>(db, version);
  const hit = entries.get(key);
  if (hit !== undefined) {
    // Most recently used last, so the oldest unused entry is the first one dropped.
    entries.delete(key);
    entries.set(key, hit);
  }
  return hit;
}

export function storeAnswer<T>(db: Db, version: number, key: string, answer: T): void {
  // A request that read an older version finishing late: its answer is right for that version only.
  const current = caches.get(db);
  if (current && current.version > version) return;
  const { entries } = cacheOf<T>(db, version);
  entries.set(key, answer);
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
}
