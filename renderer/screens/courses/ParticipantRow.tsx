// One participant as a compact line (so that a laptop shows a room's worth of people at once):
// the name with company, UVT, certificate number and comment to read, attendance, paid, and the
// details on demand (Enter or "Details"): certificate number and comment to edit, and the
// cancellation. The row is the grid's one Tab stop; its buttons are for the mouse.
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../components/ExportButton';
import { Field } from '../../components/Field';
import type { ParticipationItem } from '../../contract';
import { NotSent } from './bits';
import { attendanceOf, type Attendance } from './logic';
import { fieldKey, str, type EditField } from './useAttendance';

export function ParticipantRow(props: {
  courseId: string;
  row: ParticipationItem;
  index: number;
  top: number;
  measure(element: Element | null): void;
  active: boolean;
  /** The details (certificate number, comment, cancellation) are shown. */
  open: boolean;
  drafts: Record<string, string>;
  errors: Record<string, string>;
  onFocusRow(): void;
  onKeyDown(event: KeyboardEvent<HTMLDivElement>): void;
  onAttendance(next: Attendance): void;
  onPaid(paid: boolean): void;
  onToggleDetails(): void;
  onDraft(field: EditField, value: string): void;
  onCommit(field: EditField): void;
  onRevert(field: EditField): void;
  onCancel(): void;
}) {
  const { t, i18n } = useTranslation();
  const { row } = props;
  const state = attendanceOf(row);
  const cancelled = row.status === 'cancelled';
  const name =
    [row.lastName, row.firstName].filter(Boolean).join(', ') || t('courses.participants.noName');
  const certificate = str(row.attributes.certificate_number);
  const comment = str(row.attributes.comment);
  const meta = [row.company, row.uvt].filter(Boolean).join(' · ');
  const rowError = props.errors[fieldKey(row.id, 'row')];
  const detailsId = `participant-details-${row.id}`;
  const input = (field: EditField, label: string) => {
    const key = fieldKey(row.id, field);
    const value = props.drafts[key] ?? str(row.attributes[field]);
    return (
      <Field label={label} error={props.errors[key]} className={`p-input p-${field}`}>
        {(control) => (
          <input
            {...control}
            type="text"
            value={value}
            data-field={field}
            data-testid={field === 'certificate_number' ? 'certificate-input' : 'comment-input'}
            onChange={(event) => props.onDraft(field, event.target.value)}
            onBlur={() => props.onCommit(field)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                props.onCommit(field);
              } else if (event.key === 'Escape') {
                event.preventDefault();
                event.stopPropagation();
                props.onRevert(field);
              }
            }}
          />
        )}
      </Field>
    );
  };
  return (
    <div
      ref={props.measure}
      data-index={props.index}
      role="row"
      aria-rowindex={props.index + 2}
      tabIndex={props.active ? 0 : -1}
      className={`p-row p-${state}${cancelled ? ' p-cancelled' : ''}`}
      style={{ transform: `translateY(${props.top}px)` }}
      data-testid="participant-row"
      data-participation-id={row.id}
      data-attended={state === 'present' ? 'true' : state === 'absent' ? 'false' : 'open'}
      data-status={row.status ?? ''}
      data-paid={row.attributes.paid === true ? 'true' : 'false'}
      aria-label={`${name}${cancelled ? `, ${t('courses.participants.cancelled')}` : ''}`}
      onFocus={(event) => {
        if (event.target === event.currentTarget) props.onFocusRow();
      }}
      onKeyDown={props.onKeyDown}
    >
      <div role="gridcell" className="p-name">
        <span className="p-fullname" data-testid="participant-name" title={name}>
          {name}
        </span>
        {/* The name has the first line to itself; what is said about the row comes second. */}
        {cancelled || row.localState || meta || certificate || comment ? (
          <span
            className="p-second"
            title={[meta, certificate, comment].filter(Boolean).join(' · ')}
          >
            {cancelled ? (
              <span className="badge badge-cancelled">{t('courses.participants.cancelled')}</span>
            ) : null}
            <NotSent state={row.localState} />
            {meta ? <span className="p-meta">{meta}</span> : null}
            {certificate ? (
              <span className="p-note-preview">
                {meta ? ' · ' : null}
                {t('courses.participants.certificateShort', { number: certificate })}
              </span>
            ) : null}
            {comment ? (
              <span className="p-note-preview p-comment-preview">
                {meta || certificate ? ' · ' : null}
                {comment}
              </span>
            ) : null}
          </span>
        ) : null}
        {rowError ? (
          <span className="field-error" role="alert">
            {rowError}
          </span>
        ) : null}
      </div>
      <div role="gridcell" className="p-att">
        {cancelled ? null : (
          <span
            className="attendance"
            role="group"
            aria-label={t('courses.participants.colAttendance')}
          >
            <button
              type="button"
              tabIndex={-1}
              className="att att-present"
              aria-pressed={state === 'present'}
              title={t('courses.participants.presentTitle')}
              data-testid="attendance-present"
              onClick={() => props.onAttendance(state === 'present' ? 'open' : 'present')}
            >
              <span aria-hidden="true">✓ </span>
              {t('courses.participants.presentButton')}
            </button>
            <button
              type="button"
              tabIndex={-1}
              className="att att-absent"
              aria-pressed={state === 'absent'}
              title={t('courses.participants.absentTitle')}
              data-testid="attendance-absent"
              onClick={() => props.onAttendance(state === 'absent' ? 'open' : 'absent')}
            >
              <span aria-hidden="true">✗ </span>
              {t('courses.participants.absentButton')}
            </button>
          </span>
        )}
      </div>
      <div role="gridcell" className="p-paid">
        <label className="check paid">
          <input
            type="checkbox"
            checked={row.attributes.paid === true}
            disabled={cancelled}
            data-testid="paid"
            onChange={(event) => props.onPaid(event.target.checked)}
          />
          {t('courses.participants.paid')}
        </label>
      </div>
      <div role="gridcell" className="p-more">
        <button
          type="button"
          tabIndex={-1}
          className="quiet p-more-button"
          aria-expanded={props.open}
          aria-controls={props.open ? detailsId : undefined}
          title={t('courses.participants.detailsTitle')}
          data-testid="participant-details"
          onClick={props.onToggleDetails}
        >
          <span aria-hidden="true">{props.open ? '▴ ' : '▾ '}</span>
          {t('courses.participants.details')}
          <span className="visually-hidden">: {name}</span>
        </button>
      </div>
      {props.open ? (
        <div role="gridcell" className="p-details" id={detailsId}>
          {cancelled ? (
            // A cancelled participation is final: its values are shown, not edited.
            <span className="p-value">
              {[certificate, comment].filter(Boolean).join(' · ') || '—'}
            </span>
          ) : (
            <>
              {input('certificate_number', t('courses.participants.colCertificate'))}
              {input('comment', t('courses.participants.colComment'))}
              {state === 'present' ? (
                <ExportButton
                  className="secondary"
                  label={t('courses.participants.certificatePdf')}
                  data-testid="certificate-pdf"
                  request={{
                    format: 'pdf',
                    what: 'certificates',
                    courseId: props.courseId,
                    participationId: row.id,
                    language: i18n.language === 'en' ? 'en' : 'de',
                  }}
                />
              ) : null}
              <button
                type="button"
                className="quiet danger-text p-cancel"
                onClick={props.onCancel}
                aria-keyshortcuts="Delete"
                title={t('courses.participants.cancelTitle')}
                data-testid="cancel-participation"
              >
                {t('courses.participants.cancel')}
                <span className="visually-hidden">: {name}</span>
              </button>
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
