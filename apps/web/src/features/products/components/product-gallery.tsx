import { useState } from 'react';
import type { Product } from '@bulkcart/contracts/product';
import { ProductImage } from '@/components/product-image.tsx';

/** The detail page's main image, with thumbnails of image2 and image3 that swap into the main spot. */
export function ProductGallery({ product }: { product: Product }) {
  const images = [product.image, product.image2, product.image3].filter((src): src is string => Boolean(src));
  const [shown, setShown] = useState(0);
  const main = images[shown] ?? product.image;

  return (
    <div className="flex flex-col gap-3">
      {/* The page's largest paint: fetched ahead of the thumbnails and the rest of the page's chunks. */}
      <ProductImage src={main} alt={product.name} width={800} height={600} loading="eager" fetchPriority="high" className="aspect-[4/3] w-full rounded-box" />
      {images.length > 1 ? (
        <div className="flex gap-3" role="group" aria-label="Product images">
          {images.map((src, index) => (
            <button
              key={`${index}-${src}`}
              type="button"
              className={`overflow-hidden rounded-lg ring-2 ${index === shown ? 'ring-primary' : 'ring-transparent hover:ring-base-300'}`}
              aria-label={`Show image ${index + 1} of ${images.length}`}
              aria-pressed={index === shown}
              onClick={() => setShown(index)}
            >
              <ProductImage src={src} alt="" width={96} height={72} className="h-18 w-24" />
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
