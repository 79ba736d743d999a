import { Link } from '@/lib/router.tsx';
import type { Product } from '@bulkcart/contracts/product';
import { paths } from '@bulkcart/contracts/routes';
import { CartAction } from '@/components/cart-actions-slot.tsx';

/**
 * docs/product/rules.md: Update on your own products, View Details on everyone else's (the server would
 * refuse the update anyway).
 */
export function UpdateOrViewLink({ product, myEmail }: { product: Product; myEmail: string | undefined }) {
  if (product.useremail === myEmail) {
    return (
      <Link to={paths.updateProduct(product._id)} className="btn btn-primary btn-sm whitespace-nowrap" aria-label={`Update ${product.name}`}>
        Update
      </Link>
    );
  }
  return (
    <Link to={paths.product(product._id)} className="btn btn-outline btn-primary btn-sm whitespace-nowrap" aria-label={`View Details of ${product.name}`}>
      View Details
    </Link>
  );
}

/** A browsing card's buttons (Categories, search): its details, and the cart's own action. */
export function DetailsAndCartActions({ product }: { product: Product }) {
  return (
    <>
      <Link to={paths.product(product._id)} className="btn btn-primary btn-sm" aria-label={`Details of ${product.name}`}>
        Details
      </Link>
      <CartAction action="cart" product={product} />
    </>
  );
}
