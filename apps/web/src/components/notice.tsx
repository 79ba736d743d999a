import { useEffect, useRef, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';

export type NoticeKind = 'success' | 'error' | 'info';

export interface Notice {
  id: number;
  kind: NoticeKind;
  title?: string;
  text: string;
  /** How long it stays, in ms; the spec's success and login notices use 1000. */
  durationMs: number;
}

let notices: Notice[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** Shows a notice from anywhere (a mutation callback, a page) without prop drilling. */
export function notify(notice: Omit<Notice, 'id' | 'durationMs'> & { durationMs?: number }): void {
  const id = nextId++;
  notices = [...notices, { id, durationMs: 3000, ...notice }];
  emit();
  setTimeout(() => dismiss(id), notice.durationMs ?? 3000);
}

export function dismiss(id: number): void {
  notices = notices.filter((n) => n.id !== id);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Marks the notices' region, a child of <body>, as what an open Modal leaves usable (modal.tsx). */
export const OVER_MODALS_ATTRIBUTE = 'data-over-modals';

/**
 * Below the sticky navbar (4 rem), at the right: never over the logo, the menu button or the avatar,
 * which a person may want to press while a notice is up. On a phone it takes the width less margins.
 */
const NOTICE_PLACEMENT = 'm-0 mt-[4.75rem] ml-auto mr-3 w-[calc(100vw-1.5rem)] sm:mr-4 sm:max-w-sm';

const kindClass: Record<NoticeKind, string> = {
  success: 'alert-success',
  error: 'alert-error',
  info: 'alert-info',
};

/**
 * Renders notices as a manual popover, a child of <body>: in the top layer, so painted above the page
 * and above an open Modal (a fixed layer, not top layer), and marked to stay usable while the Modal
 * makes the rest of <body> inert. The region never moves, so each notice is inserted, and announced,
 * once. Each notice is its own live region (alert or status); the container is not one, or a screen
 * reader could read a notice twice.
 */
export function NoticeHost() {
  const current = useSyncExternalStore(
    subscribe,
    () => notices,
    () => notices,
  );
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.showPopover !== 'function') return;
    const shown = el.matches(':popover-open');
    if (current.length > 0 && !shown) el.showPopover();
    if (current.length === 0 && shown) el.hidePopover();
  }, [current]);

  return createPortal(
    <div ref={ref} popover="manual" data-over-modals="" className={`${NOTICE_PLACEMENT} border-0 bg-transparent p-0 overflow-visible`}>
      <div className="flex flex-col gap-2">
        {current.map((n) => (
          <div key={n.id} role={n.kind === 'error' ? 'alert' : 'status'} className={`alert ${kindClass[n.kind]} shadow-lg`}>
            <div>
              {n.title ? <h3 className="font-bold">{n.title}</h3> : null}
              <p>{n.text}</p>
            </div>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => dismiss(n.id)} aria-label="Dismiss">
              ✕
            </button>
          </div>
        ))}
      </div>
    </div>,
    document.body,
  );
}
