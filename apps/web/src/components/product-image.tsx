import { useState } from 'react';

export interface ProductImageProps {
  src: string;
  alt: string;
  width: number;
  height: number;
  className?: string;
  loading?: 'lazy' | 'eager';
  fetchPriority?: 'high' | 'auto';
  /**
   * What a missing or refused file leaves: 'icon' swaps in a placeholder with a picture icon;
   * 'panel' keeps the image and lets CSS cover the broken-image icon with a plain panel, with no
   * script (Chromium and Firefox draw ::after only on a broken image), for the home page, whose
   * JavaScript budget is full.
   */
  fallback?: 'icon' | 'panel';
}

/**
 * A product photo that degrades to a neutral placeholder when the file is missing or refused. The
 * placeholder is an inline element, not a data: URI, because the CSP allows images only from this
 * origin and https.
 */
export function ProductImage({ src, alt, width, height, className = '', loading = 'lazy', fetchPriority = 'auto', fallback = 'icon' }: ProductImageProps) {
  // Remembering which src failed (rather than a flag) lets a new src try again without an effect.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (failedSrc === src) {
    return (
      <div
        role="img"
        aria-label={alt}
        className={`flex items-center justify-center bg-base-200 text-base-content/30 ${className}`}
        style={{ aspectRatio: `${width} / ${height}` }}
      >
        <svg
          xmlns="http://www.w3.org/2000/svg"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          className="h-1/3 max-h-16 w-1/3 max-w-16"
          aria-hidden="true"
        >
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <circle cx="9" cy="10" r="2" />
          <path d="m21 17-5-5-9 8" />
        </svg>
      </div>
    );
  }
  const isPanel = fallback === 'panel';
  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      fetchPriority={fetchPriority}
      decoding="async"
      referrerPolicy="no-referrer"
      className={`bg-base-200 object-cover ${isPanel ? 'after:absolute after:inset-0 after:bg-base-200' : ''} ${className}`}
      onError={isPanel ? undefined : () => setFailedSrc(src)}
    />
  );
}
