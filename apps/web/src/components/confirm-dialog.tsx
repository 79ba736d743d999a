import type { ReactNode } from 'react';
import { Modal } from './modal.tsx';
import { Spinner } from './spinner.tsx';

interface ConfirmDialogProps {
  open: boolean;
  /** The question, also the dialog's accessible name. */
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** While the confirmed action runs: the buttons stay put but cannot be pressed twice. */
  isPending?: boolean;
  onConfirm: () => void;
  /** Cancel button, Escape and the close button all mean "no". */
  onCancel: () => void;
}

/** A yes/no question in a modal dialog; the caller decides what happens after each answer. */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Cancel', isPending = false, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={() => {
        // Escape or the ✕ button: a "no", unless the confirmed action is already running.
        if (!isPending) onCancel();
      }}
      actions={
        <>
          <button type="button" className="btn btn-error" onClick={onConfirm} disabled={isPending}>
            {isPending ? <Spinner inline /> : null}
            {confirmLabel}
          </button>
          <button type="button" className="btn" onClick={onCancel} disabled={isPending}>
            {cancelLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
