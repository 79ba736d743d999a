import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SkuMatch } from '@bulkcart/contracts/cart';
import { apiGet } from '@/lib/api-client.ts';

/** GET /api/skus?q=: other sellers' SKUs starting with q, exact ones first. */
export function findSkus(q: string): Promise<SkuMatch[]> {
  return apiGet<SkuMatch[]>(`/skus?q=${encodeURIComponent(q)}`);
}

export function useSkuMatches(q: string) {
  const text = q.trim();
  return useQuery({ ...queryOptions({ queryKey: ['skus', text.toLowerCase()], queryFn: () => findSkus(text) }), enabled: text.length > 0 });
}
