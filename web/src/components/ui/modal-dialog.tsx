/**
 * A native modal <dialog> driven by `open`: `showModal()` when it turns true
 * (focus moves in, the page behind is inert), `close()` when it turns false;
 * Escape asks `onClose` instead of closing behind React's back.
 */
import { useEffect, useRef, type ReactNode } from 'react';

export interface ModalDialogProps {
  open: boolean;
  onClose: () => void;
  /** Called each time the dialog opens (e.g. to reset its form). */
  onOpen?: () => void;
  /** The id of the element that names the dialog (its heading). */
  labelledBy: string;
  /** Width class, e.g. 'max-w-sm'. */
  width?: string;
  children: ReactNode;
}

export function ModalDialog({
  open,
  onClose,
  onOpen,
  labelledBy,
  width = 'max-w-sm',
  children,
}: ModalDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      onOpen?.();
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open, onOpen]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className={`m-auto w-full ${width} rounded-xl bg-white p-6 shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/40`}
    >
      {children}
    </dialog>
  );
}
