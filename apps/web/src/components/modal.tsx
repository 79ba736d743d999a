import { useEffect, useRef, type ReactNode } from 'react';

interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** Buttons under the content. */
  actions?: ReactNode;
}

/**
 * A native <dialog> opened with showModal(): the browser traps focus, makes the page behind inert and
 * closes on Escape, and the dialog sits in the top layer. Notices are shown later in the same top
 * layer, so they appear above it (see notice.tsx).
 */
export function Modal({ open, onClose, title, children, actions }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // The dialog's close event also fires when the parent closes it through `open`; only a close the
  // user started (Escape, the ✕ button) should reach onClose.
  const closingFromProp = useRef(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) {
      closingFromProp.current = true;
      dialog.close();
    }
  }, [open]);

  const handleClose = () => {
    if (closingFromProp.current) {
      closingFromProp.current = false;
      return;
    }
    onClose();
  };

  return (
    <dialog ref={ref} className="modal" aria-label={title} onClose={handleClose} onCancel={(e) => { e.preventDefault(); onClose(); }}>
      {open ? (
        <div className="modal-box">
          <button type="button" className="btn btn-sm btn-circle btn-ghost absolute right-2 top-2" onClick={onClose} aria-label="Close">
            ✕
          </button>
          <h2 className="mb-4 text-lg font-bold">{title}</h2>
          {children}
          {actions ? <div className="modal-action">{actions}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
