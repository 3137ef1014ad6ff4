// One export button for any screen (issue 13): a label, the request (or a function building it
// from what the screen shows when pressed), "Wird exportiert …" while the core writes the file,
// then a quiet status line beside it (role=status) saying what happened or, in words, why not.
// A plain button: Enter and Space work, the focus stays on it; a cancelled save dialog says
// nothing.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportRequestInput } from '../contract';
import { errorText } from '../errors';
import { exportFile } from '../export';
import { asCoreError } from '../stores';
import './export.css';

export interface ExportButtonProps {
  label: string;
  request: ExportRequestInput | (() => ExportRequestInput);
  disabled?: boolean;
  /** The button's class (default: secondary). */
  className?: string;
  'data-testid'?: string;
}

type Status = { kind: 'done' | 'error'; text: string } | null;

export function ExportButton(props: ExportButtonProps) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const testId = props['data-testid'] ?? 'export-button';

  const run = async () => {
    if (busy) return;
    setBusy(true);
    setStatus(null);
    try {
      const request = typeof props.request === 'function' ? props.request() : props.request;
      const done = await exportFile(request);
      if (mounted.current) setStatus(done.message ? { kind: 'done', text: done.message } : null);
    } catch (error) {
      if (mounted.current)
        setStatus({ kind: 'error', text: errorText(asCoreError(error), i18n.language) });
    } finally {
      if (mounted.current) setBusy(false);
    }
  };

  return (
    <span className="export-button">
      <button
        type="button"
        className={props.className ?? 'secondary'}
        disabled={props.disabled}
        aria-busy={busy || undefined}
        aria-disabled={busy || undefined}
        data-testid={testId}
        onClick={() => void run()}
      >
        {busy ? t('export.busy') : props.label}
      </button>
      <span
        role="status"
        className={status?.kind === 'error' ? 'export-status field-error' : 'export-status hint'}
        data-testid={`${testId}-status`}
      >
        {status?.text ?? ''}
      </span>
    </span>
  );
}
