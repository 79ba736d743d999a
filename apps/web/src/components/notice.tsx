import { useEffect, useRef, useSyncExternalStore } from 'react';

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

const kindClass: Record<NoticeKind, string> = {
  success: 'alert-success',
  error: 'alert-error',
  info: 'alert-info',
};

/**
 * Renders notices in the browser's top layer (a manual popover), re-shown on every change so they
 * sit above any open modal dialog rather than behind it.
 */
export function NoticeHost() {
  const current = useSyncExternalStore(subscribe, () => notices, () => notices);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.showPopover !== 'function') return;
    if (el.matches(':popover-open')) el.hidePopover();
    if (current.length > 0) el.showPopover();
  }, [current]);

  return (
    <div
      ref={ref}
      popover="manual"
      className="m-0 ml-auto mt-4 mr-4 max-w-sm border-0 bg-transparent p-0 overflow-visible"
      aria-live="assertive"
    >
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
    </div>
  );
}
