import type { QueryClient } from '@tanstack/react-query';

let loaded: QueryClient | null = null;

/**
 * The TanStack client if a page has loaded it, else null. Signing out must clear its cache, but the
 * frame that offers Logout must not pull the client in just for that (decision 005).
 */
export function getLoadedQueryClient(): QueryClient | null {
  return loaded;
}

export function setLoadedQueryClient(client: QueryClient): void {
  loaded = client;
}
