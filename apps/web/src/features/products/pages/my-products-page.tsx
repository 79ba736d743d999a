import { useState } from 'react';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { LIMITS } from '@bulkcart/contracts/limits';
import { MY_PRODUCTS_SEARCH_MAX, STOCK_STATE_LABELS, STOCK_STATES, stockStateOf, type Product, type StockState } from '@bulkcart/contracts/product';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { unitsText } from '@bulkcart/contracts/quantity';
import { MESSAGES } from '@bulkcart/contracts/messages';
import { paths } from '@bulkcart/contracts/routes';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { FilterTabs } from '@/components/filter-tabs.tsx';
import { EmptyState } from '@/components/empty-state.tsx';
import { useMediaQuery } from '@/lib/use-media-query.ts';
import { notify } from '@/components/notice.tsx';
import { useMe } from '@/lib/auth/me.ts';
import { useMyProducts } from '@/features/products/api/get-my-products.ts';
import { useDeleteProduct } from '@/features/products/api/delete-product.ts';
import { useRelistProduct } from '@/features/products/api/relist-product.ts';
import { useOpenOrders } from '@/features/products/api/get-open-orders.ts';
import { PagedProducts } from '@/features/products/components/paged-products.tsx';
import { ProductCardGrid } from '@/features/products/components/product-card-grid.tsx';
import { ProductImage } from '@/components/product-image.tsx';
import { isBelowMoq } from '@bulkcart/contracts/money';
import { Spinner } from '@/components/spinner.tsx';

/** Desktop: a page of 100 cards; a phone shows compact rows, the catalog's usual page at a time. */
const WIDE = '(min-width: 768px)';
const DESKTOP_PAGE = 100;

function stockOf(value: string | null): StockState | undefined {
  return STOCK_STATES.find((state) => state === value);
}

/**
 * /myproduct (docs/product/screens.md): the seller's own products, newest first, with stock and SKU,
 * a search box and a stock filter (both in the URL: `?q=…&stock=in_stock|low|sold_out`).
 */
export function MyProductsPage() {
  // RequireAuth renders this page only for a signed-in user.
  const email = useMe().data?.user?.email ?? '';
  const isWide = useMediaQuery(WIDE);
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim().slice(0, MY_PRODUCTS_SEARCH_MAX);
  const stock = stockOf(params.get('stock'));
  const products = useMyProducts(email, { ...(q ? { q } : {}), ...(stock ? { stock } : {}), limit: isWide ? DESKTOP_PAGE : LIMITS.pageDefault });
  const isFiltered = q !== '' || stock !== undefined;

  function showFilter(next: { q: string; stock: StockState | undefined }) {
    setParams({ ...(next.q ? { q: next.q } : {}), ...(next.stock ? { stock: next.stock } : {}) }, { replace: true });
  }
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
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
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
      <div className="mb-6 flex flex-col gap-3">
        <SearchBox key={q} initial={q} onSearch={(next) => showFilter({ q: next, stock })} />
        <FilterTabs
          label="Filter by stock"
          idPrefix="stock-tab"
          tabs={[
            { key: 'all', label: 'All', isCurrent: stock === undefined },
            ...STOCK_STATES.map((state) => ({ key: state, label: STOCK_STATE_LABELS[state], isCurrent: state === stock })),
          ]}
          onChoose={(key) => showFilter({ q, stock: stockOf(key) })}
        />
      </div>
      <PagedProducts
        query={products}
        empty={
          isFiltered ? (
            <EmptyState title="None of your products match." testId="no-match">
              <button type="button" className="btn btn-outline" onClick={() => showFilter({ q: '', stock: undefined })}>
                Show all your products
              </button>
            </EmptyState>
          ) : (
            <EmptyState title={MESSAGES.noProductFound}>
              <Link to={paths.addProduct} className="btn btn-primary">
                Add products
              </Link>
            </EmptyState>
          )
        }
      >
        {(items) =>
          isWide ? (
            <ProductCardGrid
              products={items}
              actions={(product) => (
                <>
                  <UnlistedMark product={product} />
                  <UnbuyableMark product={product} />
                  <StockLine product={product} />
                  <SkuLine product={product} />
                  <OwnerActions product={product} onDelete={() => setToDelete(product)} />
                </>
              )}
            />
          ) : (
            <ul className="flex flex-col gap-2" aria-label="Your products">
              {items.map((product) => (
                <CompactRow key={product._id} product={product} onDelete={() => setToDelete(product)} />
              ))}
            </ul>
          )
        }
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
        <Spinner inline size="xs" /> Checking open orders
      </p>
    );
  }
  if (openOrders.isError) return <p className="mt-2 text-sm text-error">Could not check this product's open orders.</p>;
  const { count } = openOrders.data;
  if (count === 0)
    return (
      <p className="mt-2 text-sm" data-testid="open-orders">
        It has no open orders.
      </p>
    );
  return (
    <p className="mt-2 rounded-box bg-warning/15 px-2 py-1 text-sm" data-testid="open-orders">
      It has {count} open {count === 1 ? 'order' : 'orders'}. {count === 1 ? 'It stays' : 'They stay'} on your order desk and can still be shipped.
    </p>
  );
}

/**
 * An unlisted product (docs/product/rules.md, "Unlisted products"): kept for its orders, out of the
 * catalog until its seller lists it again, here.
 */
function UnlistedMark({ product }: { product: Product }) {
  return product.unlisted ? <UnlistedNotice product={product} /> : null;
}

function UnlistedNotice({ product }: { product: Product }) {
  const relist = useRelistProduct();
  return (
    <div className="flex w-full flex-col items-start gap-1 rounded-box bg-base-200 px-2 py-1.5 text-sm" data-testid="unlisted">
      <p>
        <span className="badge badge-sm badge-neutral me-1.5">Unlisted</span>
        Buyers cannot see or buy this.
      </p>
      <button
        type="button"
        className="btn btn-outline btn-xs"
        aria-label={`List ${product.name} again`}
        disabled={relist.isPending}
        onClick={() =>
          relist.mutate(product._id, {
            onSuccess: () => notify({ kind: 'success', text: `${product.name} is listed again.`, durationMs: 2000 }),
            onError: (error) => notify({ kind: 'error', title: MESSAGES.errorTitle, text: error.message }),
          })
        }
      >
        List again
      </button>
    </div>
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

/** The search box: sent on Enter or Search, cleared with the field's own clear or an empty search. */
function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(initial);
  return (
    <form
      role="search"
      className="flex gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <label htmlFor="my-products-search" className="sr-only">
        Search your products
      </label>
      <input
        id="my-products-search"
        type="search"
        className="input input-bordered w-full md:max-w-md"
        placeholder="Name, brand or SKU"
        maxLength={MY_PRODUCTS_SEARCH_MAX}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="btn btn-primary">
        Search
      </button>
    </form>
  );
}

const STOCK_BADGE: Record<StockState, string> = { in_stock: 'badge-success', low: 'badge-warning', sold_out: 'badge-error' };

function StockBadge({ product }: { product: Product }) {
  const state = stockStateOf(product);
  return <span className={`badge badge-sm ${STOCK_BADGE[state]}`}>{STOCK_STATE_LABELS[state]}</span>;
}

function StockLine({ product }: { product: Product }) {
  return (
    <p className="flex w-full flex-wrap items-center gap-2 text-sm" data-testid="product-stock">
      Stock: {unitsText(product.mainquantity)} <StockBadge product={product} />
    </p>
  );
}

function SkuLine({ product }: { product: Product }) {
  return (
    <p className="w-full text-sm text-base-content/75" data-testid="product-sku">
      {product.sku ? `SKU ${product.sku}` : 'No SKU'}
    </p>
  );
}

/** Update and Delete; an unlisted product is updated once it is listed again (its page is the catalog's). */
function OwnerActions({ product, onDelete, size = 'btn-sm' }: { product: Product; onDelete: () => void; size?: 'btn-sm' | 'btn-xs' }) {
  return (
    <>
      {product.unlisted ? null : (
        <Link to={paths.updateProduct(product._id)} className={`btn btn-primary ${size}`} aria-label={`Update ${product.name}`}>
          Update
        </Link>
      )}
      <button type="button" className={`btn btn-outline btn-error ${size}`} aria-label={`Delete ${product.name}`} onClick={onDelete}>
        Delete
      </button>
    </>
  );
}

/** A phone's row: photo, name, SKU, stock and price in a few lines, Update and Delete at hand. */
function CompactRow({ product, onDelete }: { product: Product; onDelete: () => void }) {
  return (
    <li className="flex items-center gap-3 rounded-box bg-base-100 p-2 ring-1 ring-base-300" data-testid="product-row" aria-label={product.name}>
      <ProductImage src={product.image} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded-lg object-cover" />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5 text-sm">
        {product.unlisted ? (
          <span className="line-clamp-2 font-semibold break-words">{product.name}</span>
        ) : (
          <Link to={paths.product(product._id)} className="link link-hover line-clamp-2 font-semibold break-words">
            {product.name}
          </Link>
        )}
        <span className="text-base-content/75" data-testid="product-sku">
          {product.sku ? `SKU ${product.sku}` : 'No SKU'} · {product.price === null ? 'No price' : formatMoney(toCents(product.price))}
        </span>
        <span className="flex flex-wrap items-center gap-2" data-testid="product-stock">
          {unitsText(product.mainquantity)} <StockBadge product={product} />
        </span>
        <UnlistedMark product={product} />
        <UnbuyableMark product={product} />
      </div>
      <div className="flex shrink-0 flex-col gap-1">
        <OwnerActions product={product} onDelete={onDelete} size="btn-xs" />
      </div>
    </li>
  );
}
