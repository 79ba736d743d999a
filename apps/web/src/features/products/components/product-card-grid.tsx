import type { ReactNode } from 'react';
import type { Product } from '@bulkcart/contracts/product';
import { ProductCard, type ImagePriority } from './product-card.tsx';

/** The widest layout's first row: every card that can be on screen before any scrolling. */
const FIRST_ROW = 4;

/**
 * The first screen's photos, and nothing more, load before layout: the very first card's photo is
 * the page's largest paint on a phone, so it also goes first in the queue.
 */
function imagePriorityAt(index: number): ImagePriority {
  if (index === 0) return 'first';
  return index < FIRST_ROW ? 'eager' : 'lazy';
}

interface ProductCardGridProps {
  products: Product[];
  /** Each page's own buttons for a card. */
  actions: (product: Product) => ReactNode;
  /** The name as each card shows it, when a page marks it up. */
  title?: (product: Product) => ReactNode;
}

/** The catalog grid of docs/product/screens.md: 1 column on small screens, 2 on medium, 4 on large. */
export function ProductCardGrid({ products, actions, title }: ProductCardGridProps) {
  return (
    <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-4">
      {products.map((product, index) => (
        <ProductCard key={product._id} product={product} imagePriority={imagePriorityAt(index)} actions={actions(product)} title={title?.(product)} />
      ))}
    </div>
  );
}
