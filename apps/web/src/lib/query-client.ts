import { QueryClient, type InvalidateOptions, type InvalidateQueryFilters } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';
import { invalidateLinkedStores } from './fetch-store.ts';
import { setLoadedQueryClient } from './loaded-query-client.ts';

/**
 * The one TanStack client. It loads with the first page that uses it, not with the page frame
 * (decision 005); invalidating a key prefix also refreshes the frame's small stores linked to it.
 */
class AppQueryClient extends QueryClient {
  override invalidateQueries(filters?: InvalidateQueryFilters, options?: InvalidateOptions): Promise<void> {
    invalidateLinkedStores(filters?.queryKey);
    return super.invalidateQueries(filters, options);
  }
}

export const queryClient: QueryClient = new AppQueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A 4xx will not get better by asking again; a network blip or 503 might.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
setLoadedQueryClient(queryClient);
