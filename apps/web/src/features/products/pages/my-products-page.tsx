import { useState } from 'react';
import { Link } from '../../../lib/router.tsx';
import type { Product } from '@bulkcart/contracts/product';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { paths } from '@bulkcart/contracts/routes';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { notify } from '../../../components/notice.tsx';
import { useMe } from '../../../lib/auth/me.ts';
import { useMyProducts } from '../api/get-my-products.ts';
import { useDeleteProduct } from '../api/delete-product.ts';
import { useOpenOrders } from '../api/get-open-orders.ts';
import { PagedProducts } from '../components/paged-products.tsx';
import { ProductCardGrid } from '../components/product-card-grid.tsx';
import { isBelowMoq } from '@bulkcart/contracts/money';

export function MyProductsPage() {
  // RequireAuth renders this page only for a signed-in user.
  const email = useMe().data?.user?.email ?? '';
  const products = useMyProducts(email);
  const deleteProduct = useDeleteProduct();
  const [toDelete, setToDelete] = useState<Product | null>(null);

  function confirmDelete() {
    if (!toDelete) return;
    deleteProduct.mutate(toDelete._id, {
      onSuccess: () => {
        setToDelete(null);
        notify({ kind: 'success', text: MESSAGES.deleted, durationMs: 1000 });
      },
      onError: (error) => notify({ kind: 'error', title: MESSAGES.errorTitle, text: error.message }),
    });
  }

  function cancelDelete() {
    setToDelete(null);
    notify({ kind: 'info', text: MESSAGES.notDeleted, durationMs: 1000 });
  }

  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold md:text-3xl">My Product</h1>
        <div className="flex flex-wrap gap-2">
          <a className="btn btn-outline btn-sm" href="/api/my/catalog.csv" download>
            Download CSV
          </a>
          <Link to={paths.catalogImport} className="btn btn-outline btn-sm">
            Import CSV
          </Link>
        </div>
      </div>
      <PagedProducts
        query={products}
        empty={
          <div className="flex flex-col items-center gap-4 py-16 text-center">
            <p className="text-xl font-semibold">{MESSAGES.noProductFound}</p>
            <Link to={paths.addProduct} className="btn btn-primary">
              Add products
            </Link>
          </div>
        }
      >
        {(items) => (
          <ProductCardGrid
            products={items}
            actions={(product) => (
              <>
                <UnbuyableMark product={product} />
                {product.sku ? (
                  <p className="w-full text-sm text-base-content/70" data-testid="product-sku">
                    SKU {product.sku}
                  </p>
                ) : null}
                <Link to={paths.updateProduct(product._id)} className="btn btn-primary btn-sm" aria-label={`Update ${product.name}`}>
                  Update
                </Link>
                <button type="button" className="btn btn-outline btn-error btn-sm" aria-label={`Delete ${product.name}`} onClick={() => setToDelete(product)}>
                  Delete
                </button>
              </>
            )}
          />
        )}
      </PagedProducts>
      <ConfirmDialog
        open={toDelete !== null}
        title={MESSAGES.deleteConfirm}
        confirmLabel="Delete"
        isPending={deleteProduct.isPending}
        onConfirm={confirmDelete}
        onCancel={cancelDelete}
      >
        {toDelete ? (
          <>
            <p className="break-words">
              <strong>{toDelete.name}</strong> will be removed from the catalog. Orders already placed keep their record.
            </p>
            <OpenOrdersNote productId={toDelete._id} />
          </>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}

/** How many orders of the product still wait on the seller: they stay on the order desk after the delete. */
function OpenOrdersNote({ productId }: { productId: string }) {
  const openOrders = useOpenOrders(productId);
  if (openOrders.isPending) {
    return (
      <p className="mt-2 flex items-center gap-2 text-sm text-base-content/70" role="status">
        <span className="loading loading-spinner loading-xs" aria-hidden="true" /> Checking open orders
      </p>
    );
  }
  if (openOrders.isError) return <p className="mt-2 text-sm text-error">Could not check this product's open orders.</p>;
  const { count } = openOrders.data;
  if (count === 0) return <p className="mt-2 text-sm" data-testid="open-orders">It has no open orders.</p>;
  return (
    <p className="mt-2 rounded-box bg-warning/15 px-2 py-1 text-sm" data-testid="open-orders">
      It has {count} open {count === 1 ? 'order' : 'orders'}. {count === 1 ? 'It stays' : 'They stay'} on your order desk and can still be shipped.
    </p>
  );
}

/** A seller's own listing that buyers cannot buy, and why, so it is fixed rather than wondered about. */
function UnbuyableMark({ product }: { product: Product }) {
  const reasons = [product.price === null ? 'no price' : null, isBelowMoq(product) ? 'stock below the min buy quantity' : null].filter(Boolean);
  if (reasons.length === 0) return null;
  return (
    <p className="w-full rounded-box bg-warning/15 px-2 py-1 text-sm" data-testid="unbuyable">
      Buyers cannot buy this: {reasons.join(' and ')}.
    </p>
  );
}
