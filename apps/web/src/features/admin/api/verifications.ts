import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Verification } from '@bulkcart/contracts/business';
import { apiGetBlob, apiGetPage, apiSend, type ApiError } from '../../../lib/api-client.ts';

export const verificationKeys = { queue: ['admin', 'verifications', 'pending'] as const };
const PAGE = 10;

/** GET /api/admin/verifications?status=pending: the queue, oldest submission first, a page at a time. */
export function useVerificationQueue() {
  return useInfiniteQuery({
    queryKey: verificationKeys.queue,
    queryFn: ({ pageParam }) =>
      apiGetPage<Verification>(`/admin/verifications?status=pending&limit=${PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The document as a Blob: previewed from memory (an object URL), never opened from our origin. */
export function getVerificationDocument(id: string): Promise<Blob> {
  return apiGetBlob(`/admin/verifications/${encodeURIComponent(id)}/document`);
}

type Decision = { id: string; action: 'approve' } | { id: string; action: 'reject'; reason: string };

/** POST …/approve or …/reject {reason}; the decided one leaves the queue. */
export function useDecide() {
  const queryClient = useQueryClient();
  return useMutation<Verification, ApiError, Decision>({
    mutationFn: (decision) =>
      apiSend<Verification>(
        'POST',
        `/admin/verifications/${encodeURIComponent(decision.id)}/${decision.action}`,
        decision.action === 'reject' ? { reason: decision.reason } : undefined,
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: verificationKeys.queue }),
  });
}
