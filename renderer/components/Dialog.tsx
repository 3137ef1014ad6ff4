import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog>: focus kept inside, Escape closes, the focus goes back
 * to where it was when it closes.
 */
export function Dialog(props: {
  open: boolean;
  onClose(): void;
  labelledBy: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const { open, onClose } = props;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const before = document.activeElement as HTMLElement | null;
      dialog.showModal();
      return () => {
        if (dialog.open) dialog.close();
        before?.focus();
      };
    }
    return undefined;
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={props.labelledBy}
      className={props.className}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open ? props.children : null}
    </dialog>
  );
}
