import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Product, UpdateProductInput } from '@bulkcart/contracts/product';
import { apiSend } from '@/lib/api-client.ts';
import { productKeys } from './product-keys.ts';

/** PUT /api/updateproduct/{id}: only the owner may; `updatedby` comes from the session. */
export function updateProduct({ id, input }: { id: string; input: UpdateProductInput }): Promise<Product> {
  return apiSend<Product>('PUT', `/updateproduct/${encodeURIComponent(id)}`, input);
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: async (product) => {
      queryClient.setQueryData(productKeys.detail(product._id), product);
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
  });
}
