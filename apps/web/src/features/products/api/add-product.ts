import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddProductInput, Product } from '@bulkcart/contracts/product';
import { apiSend } from '@/lib/api-client.ts';
import { productKeys } from './product-keys.ts';

/** POST /api/addproduct: the server sets the owner from the session, never from the body. */
export function addProduct(input: AddProductInput): Promise<Product> {
  return apiSend<Product>('POST', '/addproduct', input);
}

export function useAddProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
