import type { SuggestResult } from '@bulkcart/contracts/search';
import { apiGet } from '@/lib/api-client.ts';

/** GET /api/search/suggest: names and categories for what is typed so far. */
export function getSuggestions(q: string): Promise<SuggestResult> {
  return apiGet<SuggestResult>(`/search/suggest?q=${encodeURIComponent(q)}`);
}
