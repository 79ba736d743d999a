import { Link } from '@/lib/router.tsx';
import { MESSAGES } from '@bulkcart/contracts/messages';

export function NotFoundPage() {
  return (
    <section className="hero min-h-[60vh]">
      <div className="hero-content text-center">
        <div className="max-w-md">
          <p className="text-7xl font-black text-primary/60" aria-hidden="true">
            404
          </p>
          <h1 className="text-3xl font-bold">{MESSAGES.notFoundHeading}</h1>
          <p className="py-4">{MESSAGES.notFoundText}</p>
          <Link to="/" className="btn btn-primary">
            Back to Home
          </Link>
        </div>
      </div>
    </section>
  );
}
