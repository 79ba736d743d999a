import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@bulkcart/contracts/business';
import { apiGetPage } from '@/lib/api-client.ts';

const PAGE = 25;

/** GET /api/admin/audit: every operator decision, newest first, a page at a time. */
export function useAuditTrail() {
  return useInfiniteQuery({
    queryKey: ['admin', 'audit'] as const,
    queryFn: ({ pageParam }) => apiGetPage<AuditEntry>(`/admin/audit?limit=${PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
