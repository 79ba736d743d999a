import { Link } from '@/lib/router.tsx';
import type { Product } from '@bulkcart/contracts/product';
import { paths } from '@bulkcart/contracts/routes';
import { PriceTag } from '@/components/price-tag.tsx';
import { BuyButton } from '@/components/buy-button-slot.tsx';
import { ProductCardFrame } from '@/components/product-card-frame.tsx';

/**
 * One card of 'Some Of Our Product' (docs/product/screens.md). Name, category and brand rows have fixed heights, so a
 * card takes the same room as its loading skeleton and nothing below moves when the data arrives. A picture that
 * fails to load leaves a plain panel drawn by CSS alone: the home page's JavaScript budget is full.
 */
export function FeaturedCard({ product }: { product: Product }) {
  return (
    <ProductCardFrame product={product} testId="featured-card" photo={{ width: 480, height: 360, fallback: 'panel' }}>
      <div className="card-body gap-1 p-4">
        <h3 className="line-clamp-2 h-12 text-base font-semibold leading-6 break-words">{product.name}</h3>
        <p className="truncate text-xs font-semibold tracking-wide text-primary/80" data-testid="featured-category">
          {product.category.toUpperCase()}
        </p>
        <p className="truncate text-sm">By: {product.brandname}</p>
        <p className="min-h-7" data-testid="featured-price">
          <PriceTag product={product} className="text-xl font-bold" />
        </p>
        <div className="card-actions mt-2 flex-nowrap">
          <Link to={paths.product(product._id)} className="btn btn-outline btn-primary btn-sm flex-1">
            View Details
          </Link>
          <BuyButton product={product} className="btn btn-secondary btn-sm flex-1" />
        </div>
      </div>
    </ProductCardFrame>
  );
}

/** The skeleton's single-line rows under the name: category, brand, price (row height, bar size). */
const SKELETON_LINES = [
  ['h-4', 'h-3 w-2/5'],
  ['h-5', 'h-3.5 w-1/3'],
  ['h-7', 'h-5 w-1/4'],
] as const;

/** The card's outline while the featured products load: same rows, same heights. */
export function FeaturedCardSkeleton() {
  return (
    <div className="card h-full overflow-hidden bg-base-100 shadow-sm ring-1 ring-base-300" aria-hidden="true" data-testid="featured-skeleton">
      <div className="skeleton aspect-[4/3] w-full rounded-none" />
      <div className="card-body gap-1 p-4">
        <div className="flex h-12 flex-col gap-2 py-1">
          <div className="skeleton h-4 w-4/5" />
          <div className="skeleton h-4 w-1/2" />
        </div>
        {SKELETON_LINES.map(([row, bar]) => (
          <div key={row} className={`flex ${row} items-center`}>
            <div className={`skeleton ${bar}`} />
          </div>
        ))}
        <div className="mt-2 flex gap-2">
          <div className="skeleton h-8 flex-1" />
          <div className="skeleton h-8 flex-1" />
        </div>
      </div>
    </div>
  );
}
