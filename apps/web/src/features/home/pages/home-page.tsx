import { prefetchTopProducts } from '../api/get-top-products.ts';
import { BannerCarousel, preloadFirstSlide } from '../components/banner-carousel.tsx';
import { CategoryCards } from '../components/category-cards.tsx';
import { FaqSection } from '../components/faq-section.tsx';
import { FeaturedProducts } from '../components/featured-products.tsx';
import { Testimonials } from '../components/testimonials.tsx';

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
