import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CatalogImport, CatalogImportListItem, CatalogRowChange, CatalogUndoResult } from '@bulkcart/contracts/catalog-import';
import { apiGet, apiGetPage, apiSend, apiUpload, type ApiError, type ApiPage } from '@/lib/api-client.ts';

export const catalogKeys = {
  all: ['catalog-imports'] as const,
  job: (id: string) => ['catalog-imports', id] as const,
  changes: (id: string, cursor: string | null) => ['catalog-imports', id, 'changes', cursor] as const,
};

/** While the server works on a job, the page asks again this often (decisions.md §6: the browser polls). */
const POLL_MS = 700;

const isWorking = (job: CatalogImport | undefined) => job?.status === 'validating' || job?.status === 'applying';

/** GET /api/catalog-imports/{id}, polled while it validates or applies. */
export function useCatalogImport(id: string) {
  return useQuery({
    queryKey: catalogKeys.job(id),
    queryFn: () => apiGet<CatalogImport>(`/catalog-imports/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (isWorking(query.state.data) ? POLL_MS : false),
  });
}

/** GET /api/catalog-imports: the last 20. */
export function useCatalogImports() {
  return useQuery({ queryKey: catalogKeys.all, queryFn: () => apiGet<CatalogImportListItem[]>('/catalog-imports') });
}

/** GET /api/catalog-imports/{id}/changes, one page of 50 rows. */
export function useCatalogChanges(id: string, cursor: string | null, enabled: boolean) {
  const query = cursor ? `?limit=50&cursor=${encodeURIComponent(cursor)}` : '?limit=50';
  return useQuery<ApiPage<CatalogRowChange>, ApiError>({
    queryKey: catalogKeys.changes(id, cursor),
    queryFn: () => apiGetPage<CatalogRowChange>(`/catalog-imports/${encodeURIComponent(id)}/changes${query}`),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** POST /api/catalog-imports, with upload progress (0…1). */
export function useUploadCatalog(onProgress: (fraction: number) => void) {
  const queryClient = useQueryClient();
  return useMutation<{ id: string }, ApiError, File>({
    mutationFn: (file) => apiUpload<{ id: string }>('/catalog-imports', 'file', file, onProgress),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: catalogKeys.all, exact: true }),
  });
}

/** POST /api/catalog-imports/{id}/apply. */
export function useApplyImport(id: string) {
  const queryClient = useQueryClient();
  return useMutation<CatalogImport, ApiError>({
    mutationFn: () => apiSend<CatalogImport>('POST', `/catalog-imports/${encodeURIComponent(id)}/apply`),
    onSuccess: (job) => queryClient.setQueryData(catalogKeys.job(id), job),
  });
}

/** POST /api/catalog-imports/{id}/undo. */
export function useUndoImport(id: string) {
  const queryClient = useQueryClient();
  return useMutation<CatalogUndoResult, ApiError>({
    mutationFn: () => apiSend<CatalogUndoResult>('POST', `/catalog-imports/${encodeURIComponent(id)}/undo`),
    onSuccess: (result) => {
      queryClient.setQueryData(catalogKeys.job(id), result.import);
      void queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });
}
