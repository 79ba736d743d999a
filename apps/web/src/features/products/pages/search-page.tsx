import { useRef } from 'react';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { HOME_CATEGORY_CARDS } from '@bulkcart/contracts/categories';
import type { SearchSort } from '@bulkcart/contracts/search-text';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { QueryProvider } from '@/lib/query-provider.tsx';
import { useSearchProducts } from '@/features/products/api/search-products.ts';
import { HighlightedText } from '@/features/products/components/highlighted-text.tsx';
import { PagedListEnd } from '@/components/paged-list-end.tsx';
import { ProductCardGrid } from '@/features/products/components/product-card-grid.tsx';
import { DetailsAndCartActions } from '@/features/products/components/product-links.tsx';
import { SearchFilters } from '@/features/products/components/search-filters.tsx';
import { searchPathForCategory } from '@/features/products/lib/search-paths.ts';
import { readSearchChoices, toSearchParams, type SearchChoices } from '@/features/products/lib/search-url.ts';

const SORT_LABELS: Record<SearchSort, string> = {
  relevance: 'Best match',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  newest: 'Newest',
  rating: 'Top rated',
};

/** Every choice lives in the URL: a link or a reload shows the same results (docs/decisions/009-search.md). */
function useSearchChoices() {
  const [params, setParams] = useSearchParams();
  const choices = readSearchChoices(params);
  const change = (next: Partial<SearchChoices>) => setParams(toSearchParams({ ...choices, ...next }), { replace: false });
  return { choices, change };
}

/** Each active filter as a button that drops it: the empty state's way out. */
function activeFilters(choices: SearchChoices, change: (next: Partial<SearchChoices>) => void): Array<{ label: string; drop(): void }> {
  const list: Array<{ label: string; drop(): void }> = [];
  for (const c of choices.category) list.push({ label: c, drop: () => change({ category: choices.category.filter((x) => x !== c) }) });
  for (const b of choices.brand) list.push({ label: `Brand ${b}`, drop: () => change({ brand: choices.brand.filter((x) => x !== b) }) });
  if (choices.minPrice !== undefined || choices.maxPrice !== undefined) {
    list.push({ label: `Price ${choices.minPrice ?? 0}–${choices.maxPrice ?? '∞'}`, drop: () => change({ minPrice: undefined, maxPrice: undefined }) });
  }
  if (choices.maxMoq !== undefined) list.push({ label: `MOQ at most ${choices.maxMoq}`, drop: () => change({ maxMoq: undefined }) });
  if (choices.inStock === 'true') list.push({ label: 'In stock', drop: () => change({ inStock: undefined }) });
  return list;
}

function EmptyResults({ choices, change }: { choices: SearchChoices; change: (next: Partial<SearchChoices>) => void }) {
  const filters = activeFilters(choices, change);
  return (
    <div className="rounded-box bg-base-100 p-6 text-center shadow-sm ring-1 ring-base-300">
      <h2 className="text-lg font-semibold">{choices.q ? `No products match “${choices.q}”` : 'No products match these filters'}</h2>
      {filters.length > 0 ? (
        <div className="mt-4">
          <p className="text-sm text-base-content/70">Try without:</p>
          <ul className="mt-2 flex flex-wrap justify-center gap-2">
            {filters.map((f) => (
              <li key={f.label}>
                <button type="button" className="btn btn-outline btn-sm" onClick={f.drop} aria-label={`Remove filter ${f.label}`}>
                  {f.label} ✕
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="mt-6">
        <p className="text-sm text-base-content/70">Popular categories:</p>
        <ul className="mt-2 flex flex-wrap justify-center gap-2">
          {HOME_CATEGORY_CARDS.map((category) => (
            <li key={category}>
              <Link to={searchPathForCategory(category)} className="btn btn-ghost btn-sm">
                {category}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

const WIDE = '(min-width: 1024px)';
const isWide = typeof window !== 'undefined' && window.matchMedia(WIDE).matches;

/** On a phone, Apply folds the filters away so the results show; the focus stays on the panel's toggle. */
function foldOnPhone(panel: HTMLDetailsElement | null) {
  if (!panel || window.matchMedia(WIDE).matches) return;
  panel.open = false;
  panel.querySelector('summary')?.focus();
}

function SearchResults() {
  const { choices, change } = useSearchChoices();
  const results = useSearchProducts(choices);
  const first = results.data?.pages[0];
  const items = results.data?.pages.flatMap((page) => page.items) ?? [];
  const terms = first?.terms ?? [];
  const sort = choices.sort ?? (choices.q ? 'relevance' : 'newest');
  const filtersPanel = useRef<HTMLDetailsElement>(null);

  return (
    <section className="flex flex-col gap-6 lg:flex-row">
      <aside className="lg:w-64 lg:shrink-0" aria-label="Filters">
        {/* Folded on a phone, where the results come first; open where there is room beside them. */}
        <details ref={filtersPanel} className="collapse collapse-arrow bg-base-100 ring-1 ring-base-300" open={isWide}>
          <summary className="collapse-title font-semibold lg:hidden">Filters</summary>
          <div className="collapse-content">
            <SearchFilters
              key={toSearchParams(choices).toString()}
              choices={choices}
              facets={first?.facets}
              change={change}
              onApplied={() => foldOnPhone(filtersPanel.current)}
            />
          </div>
        </details>
      </aside>
      <div className="min-w-0 flex-1">
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-2xl font-bold">{choices.q ? `Results for “${choices.q}”` : 'All results'}</h1>
            <p className="text-sm text-base-content/70" role="status" aria-live="polite">
              {first ? `${first.total.toLocaleString('en-US')} product${first.total === 1 ? '' : 's'}` : '\u00a0'}
            </p>
          </div>
          <label className="flex items-center gap-2 text-sm" htmlFor="search-sort">
            <span className="font-medium">Sort by</span>
            <select id="search-sort" className="select select-sm w-48" value={sort} onChange={(e) => change({ sort: e.target.value as SearchSort })}>
              {(Object.keys(SORT_LABELS) as SearchSort[])
                .filter((value) => value !== 'relevance' || choices.q)
                .map((value) => (
                  <option key={value} value={value}>
                    {SORT_LABELS[value]}
                  </option>
                ))}
            </select>
          </label>
        </div>
        {results.isPending ? (
          <Spinner label="Searching" />
        ) : !results.data ? (
          <LoadError error={results.error} onRetry={() => void results.refetch()} />
        ) : items.length === 0 ? (
          <EmptyResults choices={choices} change={change} />
        ) : (
          <ProductCardGrid
            products={items}
            title={(product) => <HighlightedText text={product.name} terms={terms} />}
            actions={(product) => <DetailsAndCartActions product={product} />}
          />
        )}
        {results.data ? <PagedListEnd query={results} loadOnScroll /> : null}
      </div>
    </section>
  );
}

/** /search (docs/decisions/009-search.md): open to signed-out visitors; product details still ask to sign in. */
export function SearchPage() {
  return (
    <QueryProvider>
      <SearchResults />
    </QueryProvider>
  );
}
