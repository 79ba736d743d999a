import { Link } from '@/lib/router.tsx';
import { paths } from '@bulkcart/contracts/routes';
import { ApiError } from '@/lib/api-client.ts';

/** An unknown or deleted product id: say so and offer the way back to the catalog. */
export function ProductNotFound() {
  return (
    <div role="alert" className="alert flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between">
      <span>This product does not exist or has been removed.</span>
      <Link to={paths.allProducts} className="btn btn-sm btn-primary">
        Browse all products
      </Link>
    </div>
  );
}

/** A 404, or a 400 for an id that cannot exist: both mean there is no such product to show. */
export function isMissingProduct(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
