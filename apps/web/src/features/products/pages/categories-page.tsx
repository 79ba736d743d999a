import { useSearchParams } from '@/lib/router.tsx';
import { CATEGORIES, isCategory } from '@bulkcart/contracts/categories';
import { EmptyState } from '@/components/empty-state.tsx';
import { setSelectedCategory, useSelectedCategory } from '@/lib/selected-category.ts';
import { useProducts } from '@/features/products/api/get-products.ts';
import { PagedProducts } from '@/features/products/components/paged-products.tsx';
import { ProductCardGrid } from '@/features/products/components/product-card-grid.tsx';
import { DetailsAndCartActions } from '@/features/products/components/product-links.tsx';

const ALL = 'All';

/** The URL's ?category= wins (links, reloads); else the category picked on the home page; else All. */
function useCategoryChoice() {
  const [params, setParams] = useSearchParams();
  const shared = useSelectedCategory();
  const fromUrl = params.get('category');
  const category = isCategory(fromUrl) ? fromUrl : isCategory(shared) ? shared : null;

  function choose(value: string) {
    const next = isCategory(value) ? value : null;
    setSelectedCategory(next ?? '');
    setParams(next ? { category: next } : {}, { replace: true });
  }
  return { category, choose };
}

export function CategoriesPage() {
  const { category, choose } = useCategoryChoice();
  const products = useProducts(category ? { category } : {});

  return (
    <section>
      <div className="mb-6 flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div>
          <h1 className="text-2xl font-bold md:text-3xl">{category ?? 'Select From Our categories'}</h1>
          {category ? null : <p className="text-base-content/70">Now showing all Product</p>}
        </div>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="category-choice" className="font-medium">
            Category
          </label>
          <select id="category-choice" className="select w-full md:w-72" value={category ?? ALL} onChange={(e) => choose(e.target.value)}>
            <option value={ALL}>All</option>
            {CATEGORIES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PagedProducts query={products} empty={<EmptyState title="No products in this category yet." />}>
        {(items) => <ProductCardGrid products={items} actions={(product) => <DetailsAndCartActions product={product} />} />}
      </PagedProducts>
    </section>
  );
}
