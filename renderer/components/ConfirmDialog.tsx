// "Really?" before a step that cannot be taken back (a cancellation, a delete, a discard): a
// title, what happens, confirm or cancel. The focus starts on cancel and Escape cancels, so a
// stray Enter or key never confirms; a destructive step's button is red.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';
import './form-controls.css';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  /** What the step does, in words. */
  text?: ReactNode;
  /** More content between text and buttons (a reason to give, a list of what is lost). */
  children?: ReactNode;
  confirmLabel: ReactNode;
  /** Default: "Abbrechen" / "Cancel". */
  cancelLabel?: ReactNode;
  destructive?: boolean;
  /** The confirm button waits (a call running); cancel stays possible. */
  busy?: boolean;
  /** An error of the step, in words: shown above the buttons, the dialog stays open. */
  error?: string | null;
  onConfirm(): void;
  onCancel(): void;
  className?: string;
  'data-testid'?: string;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { i18n } = useTranslation();
  const titleId = `confirm${useId()}`;
  const cancel = useRef<HTMLButtonElement>(null);
  // Runs after the Dialog's own effect (children first) has opened it: the focus goes to cancel.
  useEffect(() => {
    if (props.open) cancel.current?.focus();
  }, [props.open]);
  return (
    <Dialog
      open={props.open}
      onClose={props.onCancel}
      labelledBy={titleId}
      className={['confirm-dialog', props.className].filter(Boolean).join(' ')}
    >
      <div data-testid={props['data-testid'] ?? 'confirm-dialog'}>
        <h2 id={titleId}>{props.title}</h2>
        {props.text ? <p>{props.text}</p> : null}
        {props.children}
        {props.error ? (
          <p className="form-error" role="alert">
            {props.error}
          </p>
        ) : null}
        <div className="actions">
          <button
            type="button"
            className={props.destructive ? 'danger' : undefined}
            onClick={props.onConfirm}
            disabled={props.busy}
            aria-busy={props.busy || undefined}
            data-testid="confirm-ok"
          >
            {props.confirmLabel}
          </button>
          <button
            type="button"
            className="secondary"
            ref={cancel}
            onClick={props.onCancel}
            data-testid="confirm-cancel"
          >
            {props.cancelLabel ?? (i18n.language === 'en' ? 'Cancel' : 'Abbrechen')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
