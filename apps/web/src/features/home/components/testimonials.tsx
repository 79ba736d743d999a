import { SectionHeading } from './section-heading.tsx';

/** docs/product/screens.md: three fixed testimonials, each rated 4 or 5 stars. */
const TESTIMONIALS = [
  {
    name: 'Sarah Mitchell',
    role: 'Owner, Corner Street Market',
    comment: 'The MOQs fit a small store like mine, and the bulk prices let me keep my shelves full without tying up cash.',
    rating: 5,
  },
  {
    name: 'David Chen',
    role: 'Ecommerce Seller',
    comment: 'I restock my online shop here every month. Orders ship on time and the product pages list everything I need.',
    rating: 4,
  },
  {
    name: 'Amara Okafor',
    role: 'Purchasing Manager, Bright Office Supplies',
    comment: 'Volume discounts were applied at checkout without a single email. Our office supply orders have never been easier.',
    rating: 5,
  },
] as const;

/** Filled and empty stars, read out once as a whole by screen readers. */
function Stars({ rating }: { rating: number }) {
  return (
    <span role="img" aria-label={`Rated ${rating} out of 5 stars`} className="text-lg tracking-wider text-warning">
      {'★'.repeat(rating)}
      <span className="text-base-300">{'★'.repeat(5 - rating)}</span>
    </span>
  );
}

function initialsOf(name: string): string {
  return name
    .split(' ')
    .map((part) => part[0])
    .join('');
}

export function Testimonials() {
  return (
    <section aria-labelledby="home-testimonials">
      <SectionHeading id="home-testimonials" title="What Our Customers Say" subtitle="Retailers, online sellers and offices buying in bulk with BulkCart." />
      <ul className="grid grid-cols-1 gap-6 md:grid-cols-3">
        {TESTIMONIALS.map(({ name, role, comment, rating }) => (
          <li key={name} className="card bg-base-100 shadow-sm ring-1 ring-base-300" data-testid="testimonial">
            <div className="card-body gap-4">
              <Stars rating={rating} />
              <blockquote className="flex-1 text-base-content/85">“{comment}”</blockquote>
              <div className="flex items-center gap-3">
                <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-primary font-bold text-primary-content" aria-hidden="true">
                  {initialsOf(name)}
                </span>
                <div>
                  <p className="font-semibold" data-testid="testimonial-name">
                    {name}
                  </p>
                  <p className="text-sm text-base-content/70" data-testid="testimonial-role">
                    {role}
                  </p>
                </div>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
