// "Teilnahme absagen?" with an optional reason: participation.cancel, sent once however often
// Enter is pressed or held, the dialog open with its error when it is refused.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field } from '../../components/Field';
import type { ParticipationItem } from '../../contract';
import { sendCommand } from '../../data';
import { errorText } from '../../errors';

export function CancelDialog(props: {
  courseId: string;
  row: ParticipationItem | null;
  onDone(cancelled: boolean): void;
}) {
  const { t, i18n } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Set at once (state would be a render late): a held Enter or Enter and a click send one.
  const sending = useRef(false);
  const { row } = props;
  useEffect(() => {
    setReason('');
    setError(null);
    setReasonError(null);
  }, [row?.id]);
  const name = row ? [row.firstName, row.lastName].filter(Boolean).join(' ') : '';
  const confirm = async () => {
    if (!row || sending.current) return;
    sending.current = true;
    setBusy(true);
    const result = await sendCommand('participation.cancel', {
      courseId: props.courseId,
      id: row.id,
      ...(reason.trim() ? { attributes: { reason: reason.trim() } } : {}),
    });
    sending.current = false;
    setBusy(false);
    if (result.ok) {
      props.onDone(true);
      return;
    }
    setReasonError(result.fields['attributes.reason'] ?? null);
    setError(errorText(result.error, i18n.language));
  };
  return (
    <ConfirmDialog
      open={row !== null}
      title={t('courses.cancel.title')}
      text={t('courses.cancel.text', { name })}
      confirmLabel={t('courses.cancel.confirm')}
      cancelLabel={t('courses.cancel.keep')}
      destructive
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onCancel={() => props.onDone(false)}
      data-testid="cancel-dialog"
    >
      <Field
        label={t('courses.cancel.reason')}
        hint={t('courses.cancel.reasonHint')}
        error={reasonError}
      >
        {(control) => (
          <input
            {...control}
            type="text"
            value={reason}
            data-testid="cancel-reason"
            onChange={(event) => setReason(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                void confirm();
              }
            }}
          />
        )}
      </Field>
    </ConfirmDialog>
  );
}
