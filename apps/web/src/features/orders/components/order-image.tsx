import { useState } from 'react';

/**
 * The bought product's photo in the cart. The order keeps only the image address, and the file may
 * be gone with the product, so a missing one becomes a neutral square instead of a broken image.
 */
export function OrderImage({ src, alt }: { src: string; alt: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const box = 'h-16 w-16 shrink-0 rounded-lg bg-base-200';
  if (failedSrc === src) return <div role="img" aria-label={alt} className={box} />;
  return (
    <img
      src={src}
      alt={alt}
      width={64}
      height={64}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      className={`${box} object-cover`}
      onError={() => setFailedSrc(src)}
    />
  );
}
