import { addProductInputSchema, type AddProductInput } from '@bulkcart/contracts/product';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { notify } from '@/components/notice.tsx';
import { useAddProduct } from '@/features/products/api/add-product.ts';
import { blankProductValues, ProductForm } from '@/features/products/components/product-form.tsx';

export function AddProductPage() {
  const addProduct = useAddProduct();

  async function save(input: AddProductInput) {
    try {
      await addProduct.mutateAsync(input);
    } catch (error) {
      notify({ kind: 'error', text: MESSAGES.addProductFailed });
      throw error;
    }
    notify({ kind: 'success', text: MESSAGES.productAdded, durationMs: 1000 });
    return blankProductValues;
  }

  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="mb-1 text-2xl font-bold md:text-3xl">Add Product</h1>
      <p className="mb-6 text-base-content/70">List a product for wholesale buyers: stock, minimum order, unit price and category.</p>
      <div className="rounded-box bg-base-100 p-4 shadow-sm ring-1 ring-base-300 md:p-8">
        <ProductForm schema={addProductInputSchema} defaultValues={blankProductValues} submitLabel="Add Product" detailsOptional onSubmit={save} />
      </div>
    </section>
  );
}
