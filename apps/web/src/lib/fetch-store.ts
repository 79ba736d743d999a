import { useSyncExternalStore } from 'react';
import { ApiError } from './api-client.ts';

/**
 * A small shared cache of server state for what the page frame and the home page need before anything
 * else: who is signed in, and the featured products. TanStack Query does this for every other page,
 * but it would add its ~11 KB gzip to the first paint of every page (decision 005).
 * The shape mirrors useQuery's (data, isPending, isError, error, refetch), so callers read alike.
 */
export interface FetchState<T> {
  data: T | undefined;
  error: unknown;
  /** No data and no error yet: the answer is on its way (or being retried). */
  isPending: boolean;
  isError: boolean;
}

export interface FetchResult<T> extends FetchState<T> {
  refetch: () => Promise<void>;
}

export interface FetchStore<T> {
  /** Starts the first fetch unless one has run; resolves with the data once it is known. */
  load(): Promise<T | undefined>;
  /** Fetches again now; an answer to an older request is then ignored. */
  refresh(): Promise<void>;
  /** Marks the data out of date: fetched again now if a component shows it, else on its next mount. */
  invalidate(): void;
  setData(update: (old: T | undefined) => T | undefined): void;
  getState(): FetchState<T>;
  subscribe(listener: () => void): () => void;
}

interface FetchStoreOptions {
  /** A mounting component refetches data older than this; TanStack's staleTime. */
  staleMs: number;
  /**
   * The TanStack query key whose invalidation also refreshes this store (see lib/query-client.ts),
   * so a purchase that refreshes the catalog refreshes the featured products too.
   */
  linkedKey?: readonly unknown[];
}

/** As the TanStack client does: a 4xx will not get better by asking again; a network blip or 503 might. */
const RETRIES = 2;
const shouldRetry = (error: unknown, attempt: number) => attempt < RETRIES && !(error instanceof ApiError && error.status >= 400 && error.status < 500);
const retryDelayMs = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

interface LinkedStore {
  key: readonly unknown[];
  store: FetchStore<unknown>;
}
const linkedStores: LinkedStore[] = [];

export function createFetchStore<T>(fetcher: () => Promise<T>, { staleMs, linkedKey }: FetchStoreOptions): FetchStore<T> {
  let state: FetchState<T> = { data: undefined, error: null, isPending: true, isError: false };
  let fetchedAt = 0;
  let isStale = false;
  let generation = 0;
  let inFlight: Promise<void> | null = null;
  const listeners = new Set<() => void>();

  function setState(next: Partial<FetchState<T>>) {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  }

  async function fetchWithRetry(): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetcher();
      } catch (error) {
        if (!shouldRetry(error, attempt)) throw error;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
      }
    }
  }

  function refresh(): Promise<void> {
    const mine = ++generation;
    isStale = false;
    // As useQuery: with nothing to show, a new attempt is pending again rather than still failed.
    if (state.data === undefined && state.isError) setState({ isPending: true, isError: false, error: null });
    const request: Promise<void> = fetchWithRetry()
      .then(
        (data) => {
          if (mine !== generation) return;
          fetchedAt = Date.now();
          setState({ data, error: null, isPending: false, isError: false });
        },
        (error: unknown) => {
          if (mine !== generation) return;
          // As useQuery: data already shown stays, and the error is reported beside it.
          setState({ error, isPending: false, isError: true });
        },
      )
      .finally(() => {
        if (inFlight === request) inFlight = null;
      });
    inFlight = request;
    return request;
  }

  /** As useQuery on mount: fetch when there is nothing yet (or only an error), or when out of date. */
  function needsFetch(): boolean {
    if (inFlight) return false;
    return state.data === undefined || isStale || Date.now() - fetchedAt > staleMs;
  }

  const store: FetchStore<T> = {
    async load() {
      if (state.data === undefined && needsFetch()) void refresh();
      await inFlight;
      return state.data;
    },
    refresh,
    invalidate() {
      isStale = true;
      if (listeners.size > 0) void refresh();
    },
    setData(update) {
      setState({ data: update(state.data), error: null, isPending: false, isError: false });
      fetchedAt = Date.now();
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      if (needsFetch()) void refresh();
      return () => listeners.delete(listener);
    },
  };
  if (linkedKey) linkedStores.push({ key: linkedKey, store: store as FetchStore<unknown> });
  return store;
}

export function useFetchStore<T>(store: FetchStore<T>): FetchResult<T> {
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return { ...state, refetch: store.refresh };
}

/** Called by the TanStack client's invalidateQueries: refreshes the stores under the same key prefix. */
export function invalidateLinkedStores(queryKey: readonly unknown[] | undefined): void {
  for (const { key, store } of linkedStores) {
    const isUnder = !queryKey || queryKey.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i]));
    if (isUnder) store.invalidate();
  }
}
