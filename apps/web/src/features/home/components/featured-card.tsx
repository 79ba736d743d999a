import { Link } from '../../../lib/router.tsx';
import type { Product } from '@bulkcart/contracts/product';
import { paths } from '@bulkcart/contracts/routes';
import { BuyButton } from '../../../components/buy-button-slot.tsx';

/**
 * One card of 'Some Of Our Product' (docs/product/screens.md). Name, category and brand rows have fixed heights, so a
 * card takes the same room as its loading skeleton and nothing below moves when the data arrives.
 */
export function FeaturedCard({ product }: { product: Product }) {
  return (
    <article className="card h-full overflow-hidden bg-base-100 shadow-sm ring-1 ring-base-300" aria-label={product.name} data-testid="featured-card">
      <figure className="relative">
        <img
          src={product.image}
          alt={product.name}
          width={480}
          height={360}
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          // A picture that fails to load: Chromium and Firefox draw ::after only on a broken image, so a plain
          // panel covers the broken-image icon with no script (the home page's JavaScript budget is full).
          className="aspect-[4/3] w-full bg-base-200 object-cover after:absolute after:inset-0 after:bg-base-200"
        />
        {product.discount > 0 ? (
          <span className="badge badge-secondary absolute left-3 top-3 rounded-full font-bold shadow-sm" data-testid="discount-badge">
            -{product.discount}%
          </span>
        ) : null}
      </figure>
      <div className="card-body gap-1 p-4">
        <h3 className="line-clamp-2 h-12 text-base font-semibold leading-6 break-words">{product.name}</h3>
        <p className="truncate text-xs font-semibold tracking-wide text-primary/80" data-testid="featured-category">
          {product.category.toUpperCase()}
        </p>
        <p className="truncate text-sm">By: {product.brandname}</p>
        <p className="text-xl font-bold" data-testid="featured-price">
          {product.price === null ? 'Price on request' : `$${product.price}`}
        </p>
        <div className="card-actions mt-2 flex-nowrap">
          <Link to={paths.product(product._id)} className="btn btn-outline btn-primary btn-sm flex-1">
            View Details
          </Link>
          <BuyButton product={product} className="btn btn-secondary btn-sm flex-1" />
        </div>
      </div>
    </article>
  );
}

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
        <div className="flex h-4 items-center">
          <div className="skeleton h-3 w-2/5" />
        </div>
        <div className="flex h-5 items-center">
          <div className="skeleton h-3.5 w-1/3" />
        </div>
        <div className="flex h-7 items-center">
          <div className="skeleton h-5 w-1/4" />
        </div>
        <div className="mt-2 flex gap-2">
          <div className="skeleton h-8 flex-1" />
          <div className="skeleton h-8 flex-1" />
        </div>
      </div>
    </div>
  );
}
