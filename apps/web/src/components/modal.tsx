import { useEffectEvent, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { OVER_MODALS_ATTRIBUTE } from './notice.tsx';

interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** Buttons under the content. */
  actions?: ReactNode;
}

/**
 * Makes every other child of <body> inert, except what is marked to stay above modals; returns the
 * undo. Only what this call changed is restored, so a dialog opened over another one undoes its own.
 */
function makeOthersInert(dialog: HTMLElement): () => void {
  const changed: HTMLElement[] = [];
  for (const el of Array.from(document.body.children)) {
    if (el === dialog || !(el instanceof HTMLElement) || el.inert || el.hasAttribute(OVER_MODALS_ATTRIBUTE)) continue;
    el.inert = true;
    changed.push(el);
  }
  return () => {
    for (const el of changed) el.inert = false;
  };
}

/**
 * A <dialog> that is modal without showModal(). showModal() makes everything outside the dialog inert,
 * notices included, even when they are painted above it (whatwg/html#9936, Chromium does so): their ✕
 * cannot be clicked and screen readers never hear them. So the dialog opens with show() as a child of
 * <body>, and the rest of <body>, bar the notices, gets the inert attribute: the page cannot be
 * clicked, focused or read, Tab stays in the dialog (and the notices), and Escape still closes it
 * (closedby="closerequest"). Not aria-modal: VoiceOver ignores live regions outside an aria-modal
 * dialog, and inert already hides the page from assistive technology. The backdrop is daisyUI's
 * .modal itself, a fixed full-screen layer; the notices' top-layer popover is painted above it.
 */
export function Modal({ open, onClose, title, children, actions }: ModalProps) {
  if (!open) return null;
  return createPortal(
    <OpenDialog title={title} onClose={onClose} actions={actions}>
      {children}
    </OpenDialog>,
    document.body,
  );
}

function OpenDialog({ onClose, title, children, actions }: Omit<ModalProps, 'open'>) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeFromEscape = useEffectEvent(onClose);

  // A layout effect: open, with the page inert, before the first paint, and before the content's own
  // effects (a field that takes focus) run.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement;
    dialog.show();
    const undoInert = makeOthersInert(dialog);
    // Without closedby (older Safari) Escape does nothing to a dialog opened with show().
    const closeOnEscape = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) closeFromEscape();
    };
    const needsEscape = !('closedBy' in dialog);
    if (needsEscape) document.addEventListener('keydown', closeOnEscape);
    return () => {
      if (needsEscape) document.removeEventListener('keydown', closeOnEscape);
      undoInert();
      // The dialog leaves by unmounting, not close(), so the browser does not hand focus back itself.
      const lost = !document.activeElement || document.activeElement === document.body || dialog.contains(document.activeElement);
      if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="modal"
      aria-label={title}
      closedby="closerequest"
      onCancel={(e) => {
        // The caller decides: it closes by no longer rendering the dialog.
        e.preventDefault();
        onClose();
      }}
      onClose={() => {
        // Only reached when the browser closes the dialog itself (a repeated Escape whose cancel may not
        // be refused): tell the caller, and show it again in case the caller keeps it open.
        onClose();
        ref.current?.show();
      }}
    >
      <div className="modal-box">
        <button type="button" className="btn btn-sm btn-circle btn-ghost absolute right-2 top-2" onClick={onClose} aria-label="Close">
          ✕
        </button>
        <h2 className="mb-4 text-lg font-bold">{title}</h2>
        {children}
        {actions ? <div className="modal-action">{actions}</div> : null}
      </div>
    </dialog>
  );
}
