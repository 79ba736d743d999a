import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * True once the element has scrolled into view, and from then on: the home cards fade in a single
 * time rather than every time they pass the viewport. Browsers without IntersectionObserver show
 * everything at once.
 */
export function useRevealOnce<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [isRevealed, setIsRevealed] = useState(() => typeof IntersectionObserver === 'undefined');

  useEffect(() => {
    const element = ref.current;
    if (!element || isRevealed) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setIsRevealed(true);
          observer.disconnect();
        }
      },
      { rootMargin: '0px 0px -8% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [isRevealed]);

  return [ref, isRevealed];
}
