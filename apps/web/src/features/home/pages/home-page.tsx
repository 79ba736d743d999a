import { prefetchTopProducts } from '@/features/home/api/get-top-products.ts';
import { BannerCarousel, preloadFirstSlide } from '@/features/home/components/banner-carousel.tsx';
import { CategoryCards } from '@/features/home/components/category-cards.tsx';
import { FaqSection } from '@/features/home/components/faq-section.tsx';
import { FeaturedProducts } from '@/features/home/components/featured-products.tsx';
import { Testimonials } from '@/features/home/components/testimonials.tsx';

// Ask for the featured products and the first banner picture the moment this chunk loads, instead of
// after the page's first render.
prefetchTopProducts();
preloadFirstSlide();

/** The home page (docs/product/screens.md): banner, categories, FAQ, featured products, testimonials. */
export function HomePage() {
  return (
    <div className="flex flex-col gap-14 md:gap-20">
      <h1 className="sr-only">BulkCart: wholesale products in bulk for your business</h1>
      <BannerCarousel />
      <CategoryCards />
      <FaqSection />
      <FeaturedProducts />
      <Testimonials />
    </div>
  );
}
