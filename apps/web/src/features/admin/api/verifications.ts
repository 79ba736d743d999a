import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Verification } from '@bulkcart/contracts/business';
import { apiGetPage, apiSend, type ApiError } from '@/lib/api-client.ts';

/** The statuses the operator's page lists: the pending queue and the submissions already reviewed. */
export const LISTED_STATUSES = ['pending', 'verified', 'rejected'] as const;
export type ListedStatus = (typeof LISTED_STATUSES)[number];

export const verificationKeys = {
  all: ['admin', 'verifications'] as const,
  list: (status: ListedStatus) => ['admin', 'verifications', status] as const,
};
const PAGE = 10;

/** GET /api/admin/verifications?status=…: one status, oldest submission first, a page at a time. */
export function useVerifications(status: ListedStatus) {
  return useInfiniteQuery({
    queryKey: verificationKeys.list(status),
    queryFn: ({ pageParam }) =>
      apiGetPage<Verification>(`/admin/verifications?status=${status}&limit=${PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * Where a verification's document is read: `preview` is shown in the page (inline, sandboxed by the
 * answer's own CSP), `download` saves it (an attachment). Both need the operator's session cookie,
 * which the browser sends to our own origin.
 */
export function documentUrls(id: string): { preview: string; download: string } {
  const base = `/api/admin/verifications/${encodeURIComponent(id)}`;
  return { preview: `${base}/preview`, download: `${base}/document` };
}

/** A decision on the revision the operator is looking at (docs/decisions/016). */
type Decision = { id: string; revision: string } & ({ action: 'approve' } | { action: 'reject'; reason: string });

/**
 * POST …/approve {revision} or …/reject {reason, revision}. Either way the lists and the audit trail are
 * read again: the decided one moves to its tab, and one the buyer changed meanwhile (409) comes back at
 * its new revision.
 */
export function useDecide() {
  const queryClient = useQueryClient();
  return useMutation<Verification, ApiError, Decision>({
    mutationFn: (decision) =>
      apiSend<Verification>(
        'POST',
        `/admin/verifications/${encodeURIComponent(decision.id)}/${decision.action}`,
        decision.action === 'reject' ? { reason: decision.reason, revision: decision.revision } : { revision: decision.revision },
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
