import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Link } from '@/lib/router.tsx';
import { paths } from '@bulkcart/contracts/routes';

interface Slide {
  image: string;
  alt: string;
  headline?: string;
}

/** docs/product/screens.md: slide 1 is an image only; slides 2 and 3 carry a headline and 'Shop now'. */
const SLIDES: readonly Slide[] = [
  { image: 'banner-1', alt: 'A BulkCart warehouse: racks stocked with cartons and a forklift lifting a pallet' },
  { image: 'banner-2', alt: 'Payment cards and a discount tag beside shipping cartons', headline: 'Up to 50% Discount on Card Payment' },
  { image: 'banner-3', alt: 'A delivery truck beside a pallet of cartons', headline: 'Show now With Great Descount' },
];

/** The <picture> below picks the wide drawing from this width up; the preload mirrors that choice. */
const WIDE_MEDIA = '(min-width: 768px)';

/**
 * Starts downloading the first slide, the page's largest paint, as soon as the home chunk runs: the
 * <img> itself appears only after the session check, a round trip later. Only the preload whose media
 * matches is fetched, so a phone never downloads the wide picture.
 */
export function preloadFirstSlide(): void {
  const first = SLIDES[0]!.image;
  for (const [media, href] of [
    [WIDE_MEDIA, `/images/banner/${first}-desktop.webp`],
    [`not all and ${WIDE_MEDIA}`, `/images/banner/${first}-mobile.webp`],
  ] as const) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'image';
    link.href = href;
    link.media = media;
    link.setAttribute('fetchpriority', 'high');
    document.head.append(link);
  }
}

/** How far a finger must travel, in CSS pixels, before a drag counts as a swipe. */
const SWIPE_DISTANCE = 50;
/** Movement below this is a tap, so links and buttons inside a slide keep working. */
const DRAG_START = 8;

function ChevronIcon({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" className="h-5 w-5" aria-hidden="true">
      <path strokeLinecap="round" strokeLinejoin="round" d={direction === 'left' ? 'M15 18l-6-6 6-6' : 'M9 18l6-6-6-6'} />
    </svg>
  );
}

/**
 * The home banner: three slides that loop, with arrow buttons, arrow keys and touch swipe. A few lines
 * of state and a CSS transform rather than a carousel library, to keep the home page light; the slide
 * motion is a transition that prefers-reduced-motion turns off.
 */
export function BannerCarousel() {
  const [index, setIndex] = useState(0);
  const [dragOffset, setDragOffset] = useState(0);
  const drag = useRef<{ pointerId: number; startX: number; isDragging: boolean } | null>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const count = SLIDES.length;

  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    // A sideways drag belongs to the carousel. Cancelling its touchmoves stops the browser from starting
    // a fling, which would swallow the next tap (say, on 'Shop now') for about a second. React's touch
    // listeners are passive, hence a native one.
    const onTouchMove = (event: TouchEvent) => {
      if (drag.current?.isDragging && event.cancelable) event.preventDefault();
    };
    element.addEventListener('touchmove', onTouchMove, { passive: false });
    return () => element.removeEventListener('touchmove', onTouchMove);
  }, []);

  function step(by: number) {
    setIndex((current) => (current + by + count) % count);
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'ArrowRight') step(1);
    else if (event.key === 'ArrowLeft') step(-1);
    else return;
    event.preventDefault();
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (!event.isPrimary || (event.pointerType === 'mouse' && event.button !== 0)) return;
    drag.current = { pointerId: event.pointerId, startX: event.clientX, isDragging: false };
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const offset = event.clientX - current.startX;
    if (!current.isDragging && Math.abs(offset) > DRAG_START) {
      current.isDragging = true;
      // Captured only once it is a drag: capturing on pointerdown would steal the click from 'Shop now'.
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    if (current.isDragging) setDragOffset(offset);
  }

  function onPointerEnd(event: PointerEvent<HTMLDivElement>) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    const offset = event.clientX - current.startX;
    if (current.isDragging && event.type === 'pointerup') {
      if (offset <= -SWIPE_DISTANCE) step(1);
      else if (offset >= SWIPE_DISTANCE) step(-1);
    }
    setDragOffset(0);
  }

  const isDragging = dragOffset !== 0;

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Offers"
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="relative overflow-hidden rounded-box bg-neutral shadow-sm outline-offset-4 focus-visible:outline-2 focus-visible:outline-primary"
    >
      <div
        ref={viewport}
        className="aspect-[4/3] touch-pan-y select-none md:aspect-[16/7] lg:aspect-auto lg:h-[80vh]"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
      >
        <div
          aria-live="polite"
          className={`flex h-full ${isDragging ? '' : 'transition-transform duration-500 ease-out motion-reduce:transition-none'}`}
          style={{ transform: `translateX(calc(${-index * 100}% + ${dragOffset}px))` }}
        >
          {SLIDES.map((slide, i) => {
            const isCurrent = i === index;
            return (
              <div
                key={slide.image}
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${count}`}
                aria-hidden={!isCurrent}
                inert={!isCurrent}
                className="relative h-full w-full shrink-0"
              >
                <picture className="block h-full w-full">
                  <source media={WIDE_MEDIA} srcSet={`/images/banner/${slide.image}-desktop.webp`} width={1600} height={700} />
                  <img
                    src={`/images/banner/${slide.image}-mobile.webp`}
                    alt={slide.alt}
                    width={800}
                    height={600}
                    // Only the first slide is the page's largest paint; the others wait until they are shown.
                    loading={i === 0 ? 'eager' : 'lazy'}
                    fetchPriority={i === 0 ? 'high' : 'low'}
                    decoding={i === 0 ? 'sync' : 'async'}
                    draggable={false}
                    // Tall screens crop the wide drawings; keep the side with the drawing, away from the headline.
                    className={`h-full w-full object-cover ${slide.headline ? 'md:object-[70%_50%]' : ''}`}
                  />
                </picture>
                {slide.headline ? (
                  <div className="absolute inset-0 flex items-start bg-linear-to-b from-neutral/85 via-neutral/45 to-transparent md:items-center md:bg-linear-to-r md:via-neutral/40 md:via-35% md:to-60%">
                    <div className="max-w-xl px-12 py-5 text-neutral-content sm:px-14 md:px-20">
                      <h2 className="text-2xl font-extrabold leading-tight sm:text-3xl md:text-4xl lg:text-5xl">{slide.headline}</h2>
                      <Link to={paths.categoriesLink} className="btn btn-secondary mt-4 md:btn-lg md:mt-8">
                        Shop now
                      </Link>
                    </div>
                  </div>
                ) : null}
              </div>
            );
          })}
        </div>
      </div>

      <button
        type="button"
        className="btn btn-circle btn-sm absolute left-3 top-1/2 -translate-y-1/2 border-0 bg-base-100/85 shadow md:btn-md md:left-5"
        aria-label="Previous slide"
        onClick={() => step(-1)}
      >
        <ChevronIcon direction="left" />
      </button>
      <button
        type="button"
        className="btn btn-circle btn-sm absolute right-3 top-1/2 -translate-y-1/2 border-0 bg-base-100/85 shadow md:btn-md md:right-5"
        aria-label="Next slide"
        onClick={() => step(1)}
      >
        <ChevronIcon direction="right" />
      </button>
      <div className="absolute inset-x-0 bottom-2 flex justify-center gap-1">
        {SLIDES.map((slide, i) => (
          <button
            key={slide.image}
            type="button"
            className="flex h-6 w-6 items-center justify-center"
            aria-label={`Show slide ${i + 1}`}
            aria-current={i === index}
            onClick={() => setIndex(i)}
          >
            <span
              className={`block h-2.5 rounded-full shadow transition-all motion-reduce:transition-none ${i === index ? 'w-6 bg-secondary' : 'w-2.5 bg-base-100/80'}`}
            />
          </button>
        ))}
      </div>
    </section>
  );
}
