import { Link } from '@/lib/router.tsx';
import { HOME_CATEGORY_CARDS, type Category } from '@bulkcart/contracts/categories';
import { paths } from '@bulkcart/contracts/routes';
import { setSelectedCategory } from '@/lib/selected-category.ts';
import { useRevealOnce } from '@/features/home/lib/use-reveal-once.ts';
import { SectionHeading } from './section-heading.tsx';

const BLURBS: Partial<Record<Category, string>> = {
  'Fashion & Apparel': 'Tees, denim, caps and bags packed by the carton for your racks.',
  'Home & Kitchen Appliances': 'Kettles, toasters and cookware at prices that leave room for margin.',
  'Health & Beauty': 'Serums, lotions and hygiene essentials your customers reorder.',
  'Office Supplies & Stationery': 'Paper, pens and desk supplies for shops and offices alike.',
  'Electronics & Gadgets': 'Earbuds, chargers, speakers and smart gadgets that move fast on shelves and online stores.',
};

/** The file the image script draws for a category card (scripts/generate-images.ts). */
function imageFor(category: string): string {
  const slug = category
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `/images/categories/${slug}.webp`;
}

function CategoryCard({ category, index, isWide }: { category: Category; index: number; isWide: boolean }) {
  const [ref, isRevealed] = useRevealOnce<HTMLLIElement>();
  return (
    <li
      ref={ref}
      className={`transition duration-700 ease-out motion-reduce:transition-none ${isRevealed ? 'translate-y-0 opacity-100' : 'translate-y-8 opacity-0'} ${isWide ? 'md:col-span-2 lg:col-span-4' : ''}`}
      // Cards that enter together arrive one after another.
      style={{ transitionDelay: `${(index % 4) * 90}ms` }}
      data-testid="category-card"
    >
      <Link
        to={`${paths.categories}?category=${encodeURIComponent(category)}`}
        onClick={() => setSelectedCategory(category)}
        className={`card group h-full overflow-hidden bg-base-100 shadow-sm ring-1 ring-base-300 transition hover:-translate-y-1 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary motion-reduce:transition-none ${isWide ? 'md:card-side' : ''}`}
      >
        <figure className={`shrink-0 ${isWide ? 'md:w-[calc(50%-0.75rem)] lg:w-[calc(25%-1.125rem)]' : ''}`}>
          <img
            src={imageFor(category)}
            alt=""
            width={480}
            height={360}
            loading="lazy"
            decoding="async"
            className="aspect-[16/10] w-full bg-base-200 object-cover transition md:aspect-[4/3] duration-500 group-hover:scale-105 motion-reduce:transition-none"
          />
        </figure>
        <div className={`card-body gap-1 p-5 ${isWide ? 'md:justify-center md:px-10' : ''}`}>
          <h3 className="card-title text-lg">{category}</h3>
          {/* daisyUI lets a card's paragraphs grow; this one keeps to its text so the link sits under it. */}
          <p className="grow-0 text-sm text-base-content/80">{BLURBS[category]}</p>
          <span className="mt-2 text-sm font-semibold text-primary" aria-hidden="true">
            Browse products →
          </span>
        </div>
      </Link>
    </li>
  );
}

/**
 * 'Our Product Categories' (docs/product/screens.md): five cards, each opening the Categories page on its category.
 * The click records the choice first, so the page opens on it even where the query is dropped.
 */
export function CategoryCards() {
  return (
    <section aria-labelledby="home-categories">
      <SectionHeading id="home-categories" title="Our Product Categories" subtitle="Stock up by category: every product ships in bulk at wholesale prices." />
      <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-4">
        {HOME_CATEGORY_CARDS.map((category, index) => (
          <CategoryCard key={category} category={category} index={index} isWide={index === HOME_CATEGORY_CARDS.length - 1} />
        ))}
      </ul>
    </section>
  );
}
