import { Link, useParams } from '@/lib/router.tsx';
import { updateProductInputSchema, type Product, type UpdateProductInput } from '@bulkcart/contracts/product';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { paths } from '@bulkcart/contracts/routes';
import { notify } from '@/components/notice.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { useMe } from '@/lib/auth/me.ts';
import { useProduct } from '@/features/products/api/get-product.ts';
import { useUpdateProduct } from '@/features/products/api/update-product.ts';
import { ProductForm, toProductFormValues } from '@/features/products/components/product-form.tsx';
import { isMissingProduct, ProductNotFound } from '@/features/products/components/product-not-found.tsx';

export function UpdateProductPage() {
  const { id = '' } = useParams();
  const product = useProduct(id);
  const me = useMe();

  let body;
  if (product.isPending) body = <Spinner label="Loading the product" />;
  else if (product.isError) {
    body = isMissingProduct(product.error) ? <ProductNotFound /> : <LoadError error={product.error} onRetry={() => void product.refetch()} />;
  } else if (product.data.useremail !== me.data?.user?.email) {
    body = <NotYourProduct product={product.data} />;
  } else {
    body = <UpdateForm key={product.data._id} product={product.data} />;
  }

  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="mb-6 text-2xl font-bold md:text-3xl">Update Product</h1>
      {body}
    </section>
  );
}

function UpdateForm({ product }: { product: Product }) {
  const updateProduct = useUpdateProduct();

  async function save(input: UpdateProductInput) {
    let saved: Product;
    try {
      saved = await updateProduct.mutateAsync({ id: product._id, input });
    } catch (error) {
      notify({ kind: 'error', text: MESSAGES.somethingWentWrong });
      throw error;
    }
    notify({ kind: 'success', text: MESSAGES.productUpdated, durationMs: 1000 });
    return toProductFormValues(saved);
  }

  return (
    <div className="rounded-box bg-base-100 p-4 shadow-sm ring-1 ring-base-300 md:p-8">
      <ProductForm schema={updateProductInputSchema} defaultValues={toProductFormValues(product)} submitLabel="Update Product" onSubmit={save} />
    </div>
  );
}

/** docs/product/rules.md: only the seller who listed a product may change it, so no form for anyone else. */
function NotYourProduct({ product }: { product: Product }) {
  return (
    <div role="alert" className="alert alert-warning flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between">
      <span>
        <strong className="break-words">{product.name}</strong> was listed by another seller. Only the seller who listed a product can update it.
      </span>
      <Link to={paths.product(product._id)} className="btn btn-sm">
        View Details
      </Link>
    </div>
  );
}
