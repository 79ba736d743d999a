import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client.ts';
import { productKeys } from './product-keys.ts';

export interface DeleteProductResult {
  _id: string;
  deleted: true;
}

/** DELETE /api/product/{id}: only the owner may. */
export function deleteProduct(id: string): Promise<DeleteProductResult> {
  return apiSend<DeleteProductResult>('DELETE', `/product/${encodeURIComponent(id)}`);
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: async (_result, id) => {
      queryClient.removeQueries({ queryKey: productKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
  });
}
