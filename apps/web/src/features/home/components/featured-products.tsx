import { useEffect } from 'react';
import { LIMITS } from '@bulkcart/contracts/limits';
import { useTopProducts } from '@/features/home/api/get-top-products.ts';
import { FeaturedCard, FeaturedCardSkeleton } from './featured-card.tsx';
import { SectionHeading } from './section-heading.tsx';

/**
 * 'Some Of Our Product' (docs/product/screens.md): the featured products from GET /api/topproduct. docs/product/rules.md: a failed
 * load is logged and leaves the grid empty; the rest of the page is unaffected.
 */
export function FeaturedProducts() {
  const topProducts = useTopProducts();

  useEffect(() => {
    if (topProducts.error) console.error('Could not load the featured products:', topProducts.error);
  }, [topProducts.error]);

  return (
    <section aria-labelledby="home-featured">
      <SectionHeading id="home-featured" title="Some Of Our Product" subtitle="Best-rated products from our catalog, ready to ship in bulk." />
      <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-4" aria-busy={topProducts.isPending} data-testid="featured-grid">
        {topProducts.isPending
          ? Array.from({ length: LIMITS.featuredCount }, (_, i) => (
              <li key={i}>
                <FeaturedCardSkeleton />
              </li>
            ))
          : (topProducts.data ?? []).map((product) => (
              <li key={product._id}>
                <FeaturedCard product={product} />
              </li>
            ))}
      </ul>
    </section>
  );
}
