import { useLayoutEffect, useRef, useState } from 'react';

export interface FilterTab {
  key: string;
  label: string;
  /** Shown as a badge; `undefined` while loading, no badge when the tabs carry no counts. */
  count?: number | undefined;
  isCurrent: boolean;
}

/**
 * A row of filter buttons (the cart's Orders/Cancelled, the desk's statuses). On a phone a row wider
 * than the screen scrolls sideways, with a fade and an arrow at each edge that has more beyond it, so
 * a tab past the edge is never simply cut off. The current tab is scrolled into view.
 */
export function FilterTabs({
  label,
  tabs,
  withCounts = false,
  idPrefix,
  onChoose,
}: {
  label: string;
  tabs: FilterTab[];
  withCounts?: boolean;
  idPrefix: string;
  onChoose: (key: string) => void;
}) {
  const strip = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  function measure() {
    const el = strip.current;
    if (!el) return;
    const before = el.scrollLeft > 1;
    const after = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((was) => (was.before === before && was.after === after ? was : { before, after }));
  }

  const current = tabs.find((tab) => tab.isCurrent)?.key;
  // The counts arrive after the tabs and widen them, moving the current one: it is brought into view
  // again then. Centred, so the edge cues never cover it.
  const counts = tabs.map((tab) => tab.count ?? '').join(',');
  useLayoutEffect(() => {
    const el = strip.current;
    if (!el) return;
    el.querySelector<HTMLElement>('[aria-pressed="true"]')?.scrollIntoView({ block: 'nearest', inline: 'center' });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [current, counts]);

  return (
    <nav aria-label={label} className="relative -mx-4">
      <div ref={strip} className="overflow-x-auto px-4" onScroll={measure} data-testid="filter-tabs">
        <ul className="flex w-max gap-2 pb-1">
          {tabs.map((tab) => (
            <li key={tab.key}>
              <button
                type="button"
                className={`btn btn-sm whitespace-nowrap ${tab.isCurrent ? 'btn-primary' : 'btn-ghost bg-base-100 ring-1 ring-base-300'}`}
                aria-pressed={tab.isCurrent}
                onClick={() => onChoose(tab.key)}
                data-testid={`${idPrefix}-${tab.key}`}
              >
                {tab.label}
                {withCounts ? <span className={`badge badge-sm ${tab.isCurrent ? '' : 'badge-ghost'}`}>{tab.count ?? '…'}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      </div>
      {more.before ? <EdgeCue side="before" /> : null}
      {more.after ? <EdgeCue side="after" /> : null}
    </nav>
  );
}

/** The fade and arrow at an edge with more tabs beyond it; decoration only (the tabs stay reachable by Tab). */
function EdgeCue({ side }: { side: 'before' | 'after' }) {
  const isAfter = side === 'after';
  return (
    <span
      aria-hidden="true"
      className={`pointer-events-none absolute inset-y-0 flex w-14 items-center pb-1 ${isAfter ? 'right-0 justify-end bg-linear-to-l pr-1' : 'left-0 justify-start bg-linear-to-r pl-1'} from-base-100 from-40% to-transparent`}
      data-testid={`more-tabs-${side}`}
    >
      <span className="grid h-7 w-7 place-items-center rounded-full bg-base-100 text-lg leading-none shadow ring-1 ring-base-300">{isAfter ? '›' : '‹'}</span>
    </span>
  );
}
