import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BusinessProfile, BusinessProfileInput } from '@bulkcart/contracts/business';
import { apiGet, apiSend, apiUpload, type ApiError } from '@/lib/api-client.ts';
import { refreshMe } from '@/lib/auth/me.ts';

export const businessKeys = { profile: ['business', 'profile'] as const };

/** GET /api/business: the profile, its status and the reviewer's reason. */
export function useBusinessProfile() {
  return useQuery({ queryKey: businessKeys.profile, queryFn: () => apiGet<BusinessProfile>('/business') });
}

/** After a save or an upload the status may have changed, and prices with it (/api/me). */
function useStoreAnswer() {
  const queryClient = useQueryClient();
  return (profile: BusinessProfile) => {
    queryClient.setQueryData(businessKeys.profile, profile);
    void refreshMe();
  };
}

/** PUT /api/business. */
export function useSaveBusinessProfile() {
  const store = useStoreAnswer();
  return useMutation<BusinessProfile, ApiError, BusinessProfileInput>({
    mutationFn: (input) => apiSend<BusinessProfile>('PUT', '/business', input),
    onSuccess: store,
  });
}

/** POST /api/business/document, with upload progress (0…1). */
export function useUploadDocument(onProgress: (fraction: number) => void) {
  const store = useStoreAnswer();
  return useMutation<BusinessProfile, ApiError, File>({
    mutationFn: (file) => apiUpload<BusinessProfile>('/business/document', 'document', file, onProgress),
    onSuccess: store,
  });
}
