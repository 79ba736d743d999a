import { useSearchParams } from '@/lib/router.tsx';
import { useMe } from '@/lib/auth/me.ts';
import { useProducts } from '@/features/products/api/get-products.ts';
import { EmptyState } from '@/components/empty-state.tsx';
import { PagedProducts } from '@/features/products/components/paged-products.tsx';
import { ProductCardGrid } from '@/features/products/components/product-card-grid.tsx';
import { ProductTable } from '@/features/products/components/product-table.tsx';
import { UpdateOrViewLink } from '@/features/products/components/product-links.tsx';

type View = 'card' | 'table';

/** Both choices live in the URL, so a reload or a shared link keeps them. */
function useAllProductsParams() {
  const [params, setParams] = useSearchParams();
  const available = params.get('available') === 'true';
  const view: View = params.get('view') === 'table' ? 'table' : 'card';
  function setParam(key: string, value: string | null) {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === null) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  }
  return {
    available,
    view,
    setAvailable: (on: boolean) => setParam('available', on ? 'true' : null),
    setView: (next: View) => setParam('view', next === 'table' ? 'table' : null),
  };
}

export function AllProductsPage() {
  const { available, view, setAvailable, setView } = useAllProductsParams();
  const myEmail = useMe().data?.user?.email;
  const products = useProducts(available ? { available: true } : {});

  return (
    <section>
      <div className="mb-6 flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div>
          <h1 className="text-2xl font-bold md:text-3xl">All Product</h1>
          <p className="text-base-content/70">{available ? 'Products with a minimum order above 100 units.' : 'Every product in the catalog, newest first.'}</p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div className="join" role="group" aria-label="Which products">
            <button
              type="button"
              className={`btn join-item btn-sm ${available ? '' : 'btn-primary'}`}
              aria-pressed={!available}
              onClick={() => setAvailable(false)}
            >
              Show All Products
            </button>
            <button
              type="button"
              className={`btn join-item btn-sm ${available ? 'btn-primary' : ''}`}
              aria-pressed={available}
              onClick={() => setAvailable(true)}
            >
              Show Available Products
            </button>
          </div>
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor="products-view" className="font-medium">
              View
            </label>
            <select id="products-view" className="select select-sm w-36" value={view} onChange={(e) => setView(e.target.value === 'table' ? 'table' : 'card')}>
              <option value="card">Card View</option>
              <option value="table">Table View</option>
            </select>
          </div>
        </div>
      </div>
      <PagedProducts query={products} empty={<EmptyState title={available ? 'No product has a minimum order above 100 units yet.' : 'No products yet.'} />}>
        {(items) =>
          view === 'table' ? (
            <ProductTable products={items} action={(product) => <UpdateOrViewLink product={product} myEmail={myEmail} />} />
          ) : (
            <ProductCardGrid products={items} actions={(product) => <UpdateOrViewLink product={product} myEmail={myEmail} />} />
          )
        }
      </PagedProducts>
    </section>
  );
}
