import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Product } from '@bulkcart/contracts/product';
import { apiSend } from '@/lib/api-client.ts';
import { productKeys } from './product-keys.ts';

/** POST /api/my/products/{id}/relist: the owner's unlisted product back in the catalog. */
export function relistProduct(id: string): Promise<Product> {
  return apiSend<Product>('POST', `/my/products/${encodeURIComponent(id)}/relist`);
}

export function useRelistProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: relistProduct,
    onSuccess: async (product) => {
      queryClient.setQueryData(productKeys.detail(product._id), product);
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
  });
}
