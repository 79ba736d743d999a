import type { ReactNode } from 'react';
import type { Product } from '@bulkcart/contracts/product';
import { ProductImage, type ProductImageProps } from './product-image.tsx';

interface ProductCardFrameProps {
  product: Product;
  testId: string;
  /** How the 4:3 photo loads and fails; its source and text come from the product. */
  photo: Pick<ProductImageProps, 'width' | 'height' | 'loading' | 'fetchPriority' | 'fallback'>;
  children: ReactNode;
}

/**
 * What every product card shares (the home page's featured cards and the catalog's cards): the
 * outlined card named after the product, its 4:3 photo and the discount badge over it. Each card
 * writes its own rows below.
 */
export function ProductCardFrame({ product, testId, photo, children }: ProductCardFrameProps) {
  return (
    <article className="card h-full overflow-hidden bg-base-100 shadow-sm ring-1 ring-base-300" aria-label={product.name} data-testid={testId}>
      <figure className="relative">
        <ProductImage src={product.image} alt={product.name} className="aspect-[4/3] w-full" {...photo} />
        {product.discount > 0 ? (
          <span className="badge badge-secondary absolute left-3 top-3 rounded-full font-bold shadow-sm" data-testid="discount-badge">
            -{product.discount}%
          </span>
        ) : null}
      </figure>
      {children}
    </article>
  );
}
