import type { ReactNode } from 'react';
import type { Product } from '@bulkcart/contracts/product';
import { RatingStars } from '@/components/rating-stars.tsx';
import { ProductCardFrame } from '@/components/product-card-frame.tsx';
import { PriceTag } from '@/components/price-tag.tsx';
import { StockFlag } from '@/components/stock-flag.tsx';

/** How soon a card's photo loads: 'first' is the one most likely to be the largest paint. */
export type ImagePriority = 'first' | 'eager' | 'lazy';

interface ProductCardProps {
  product: Product;
  actions?: ReactNode;
  imagePriority?: ImagePriority;
  /** The name as shown, when a page marks it up (search highlights the matched words). */
  title?: ReactNode;
}

/** The one product card of the catalog pages; each page puts its own buttons in `actions`. */
export function ProductCard({ product, actions, imagePriority = 'lazy', title }: ProductCardProps) {
  return (
    <ProductCardFrame
      product={product}
      testId="product-card"
      photo={{ width: 400, height: 300, loading: imagePriority === 'lazy' ? 'lazy' : 'eager', fetchPriority: imagePriority === 'first' ? 'high' : 'auto' }}
    >
      {/* daisyUI lets a card-body paragraph grow: the rows stay together, the price row takes the slack. */}
      <div className="card-body gap-2 p-4">
        {/* One inline run of text: daisyUI's card-title is a flex row, which would make each highlighted
            word and the text between them columns of their own, squeezed and clipped on a phone. */}
        <h2 className="card-title text-base leading-snug break-words">
          <span className="min-w-0">{title ?? product.name}</span>
        </h2>
        <p className="grow-0 text-xs font-semibold uppercase tracking-wide text-primary/80" data-testid="product-category">
          {product.category}
        </p>
        <p className="grow-0 text-sm">By: {product.brandname}</p>
        <p className="grow-0 text-sm">Min Buy Qty: {product.minquantity}</p>
        {product.casepack > 1 ? <p className="grow-0 text-sm">Sold in cases of {product.casepack}</p> : null}
        <StockFlag product={product} />
        {product.description ? <p className="line-clamp-3 grow-0 text-sm text-base-content/75 break-words">{product.description}</p> : null}
        <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-2">
          <PriceTag product={product} nudge />
          <RatingStars rating={product.rating} />
        </div>
        {actions ? <div className="card-actions mt-2 flex-wrap">{actions}</div> : null}
      </div>
    </ProductCardFrame>
  );
}
