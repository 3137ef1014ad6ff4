// The participants of a course at the venue, made for speed: attendance with one key or click
// per person (the row moves on by itself), "Alle anwesend" for the rest (undo-able), paid,
// certificate number and comment edited in place, a cancellation with a confirmation, and a
// walk-in added in a dialog. Every change goes through the outbox (offline the same), shows at
// once and is marked "nicht gesendet" until the service has it.
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field } from '../../components/Field';
import type { CommandArgs, CourseDetail, ParticipationItem, QueryResults } from '../../contract';
import { sendCommand, type QueryState } from '../../data';
import { errorText } from '../../errors';
import { AddParticipantDialog } from './AddParticipantDialog';
import { NotSent } from './bits';
import { dialogOpen, isTyping } from './CoursesWorkspace';
import { attendanceChange, attendanceOf, OPEN_STATUSES, type Attendance } from './logic';

type Change = NonNullable<CommandArgs<'participation.update'>['attributes']>;

const ROW_ESTIMATE = 88;

type EditField = 'certificate_number' | 'comment';

function str(value: unknown): string {
  return typeof value === 'string'
    ? value
    : value === null || value === undefined
      ? ''
      : String(value);
}

export function Participants(props: {
  courseId: string;
  course: CourseDetail;
  query: QueryState<QueryResults['participations.list']>;
  scrollElement: RefObject<HTMLElement | null>;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { courseId } = props;
  const all = props.query.data;

  /** Changes sent but not yet read back: the row shows them at once. */
  const [pending, setPending] = useState<Record<string, Change>>({});
  /** Texts typed in a row's inputs and not yet stored (kept on an error). */
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [showCancelled, setShowCancelled] = useState(true);
  const [activeId, setActiveId] = useState<string | null>(null);
  const focusRequest = useRef<string | null>(null);
  /** Fields whose draft Escape threw away: their blur right after must not send it. */
  const reverted = useRef(new Set<string>());
  const [lastBulk, setLastBulk] = useState<{ id: string; status: string }[] | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);
  const [adding, setAdding] = useState(false);
  const [cancelling, setCancelling] = useState<ParticipationItem | null>(null);
  /** The status a row had before its attendance was taken: "offen" goes back to it. */
  const openStatus = useRef(new Map<string, string>());

  // The rows as they are now: read back from the replica, with what is on its way.
  const rows = useMemo(() => {
    const items = (all ?? []).map((item) => {
      const change = pending[item.id];
      if (!change) return item;
      return {
        ...item,
        status: change.status ?? item.status,
        attended: change.attended ?? item.attended,
        attributes: { ...item.attributes, ...change },
      };
    });
    const live = items.filter((item) => item.status !== 'cancelled');
    const cancelled = items.filter((item) => item.status === 'cancelled');
    return { live, cancelled, shown: showCancelled ? [...live, ...cancelled] : live };
  }, [all, pending, showCancelled]);

  // What the replica shows now no longer needs to be held: drafts equal to the stored value go.
  useEffect(() => {
    if (!all) return;
    const byId = new Map(all.map((item) => [item.id, item]));
    setDrafts((before) => {
      let changed = false;
      const next: Record<string, string> = {};
      for (const [key, value] of Object.entries(before)) {
        const [id, field] = key.split('|') as [string, EditField];
        const item = byId.get(id);
        if (item && str(item.attributes[field]) === value && !errors[key]) {
          changed = true;
          continue;
        }
        next[key] = value;
      }
      return changed ? next : before;
    });
  }, [all]);

  const rowsNow = useRef(rows);
  rowsNow.current = rows;

  const counts = useMemo(() => {
    let present = 0;
    let absent = 0;
    let open = 0;
    for (const row of rows.live) {
      const state = attendanceOf(row);
      if (state === 'present') present++;
      else if (state === 'absent') absent++;
      else open++;
    }
    return { present, absent, open };
  }, [rows.live]);

  const update = async (row: ParticipationItem, change: Change): Promise<boolean> => {
    setPending((before) => ({ ...before, [row.id]: { ...before[row.id], ...change } }));
    const result = await sendCommand('participation.update', {
      courseId,
      id: row.id,
      attributes: change,
    });
    // Read back (or refused): the replica's version shows from now on.
    setPending((before) => {
      const next = { ...before };
      delete next[row.id];
      return next;
    });
    if (!result.ok) {
      setErrors((before) => ({ ...before, [`${row.id}|row`]: errorText(result.error, language) }));
      return false;
    }
    setErrors((before) => {
      if (!before[`${row.id}|row`]) return before;
      const next = { ...before };
      delete next[`${row.id}|row`];
      return next;
    });
    return true;
  };

  const setAttendance = (row: ParticipationItem, next: Attendance) => {
    if (row.status === 'cancelled') return;
    if (row.status && OPEN_STATUSES.has(row.status)) openStatus.current.set(row.id, row.status);
    setLastBulk(null);
    void update(row, attendanceChange(next, openStatus.current.get(row.id)));
  };

  const allPresent = async () => {
    const open = rows.live.filter((row) => attendanceOf(row) === 'open');
    if (open.length === 0) return;
    setBulkBusy(true);
    const undo: { id: string; status: string }[] = [];
    for (const row of open) {
      const status = row.status && OPEN_STATUSES.has(row.status) ? row.status : 'registered';
      openStatus.current.set(row.id, status);
      if (await update(row, { attended: true, status: 'attended' }))
        undo.push({ id: row.id, status });
    }
    setBulkBusy(false);
    setLastBulk(undo);
  };

  const undoBulk = async () => {
    if (!lastBulk) return;
    setBulkBusy(true);
    const byId = new Map(rows.live.map((row) => [row.id, row]));
    for (const { id, status } of lastBulk) {
      const row = byId.get(id);
      if (row && attendanceOf(row) === 'present')
        await update(row, { attended: false, status: status as Change['status'] });
    }
    setBulkBusy(false);
    setLastBulk(null);
  };

  const commitText = async (row: ParticipationItem, field: EditField) => {
    const key = `${row.id}|${field}`;
    // Escape's revert moves the focus on, and the blur comes before the draft is gone: not sent.
    if (reverted.current.delete(key)) return;
    const draft = drafts[key];
    if (draft === undefined || draft === str(row.attributes[field])) {
      setErrors((before) => {
        if (!before[key]) return before;
        const next = { ...before };
        delete next[key];
        return next;
      });
      return;
    }
    const result = await sendCommand('participation.update', {
      courseId,
      id: row.id,
      attributes: { [field]: draft },
    });
    setErrors((before) => {
      const next = { ...before };
      if (result.ok) delete next[key];
      else next[key] = result.fields[`attributes.${field}`] ?? errorText(result.error, language);
      return next;
    });
  };

  const revertText = (row: ParticipationItem, field: EditField) => {
    const key = `${row.id}|${field}`;
    if (drafts[key] !== undefined) reverted.current.add(key);
    setDrafts((before) => {
      const next = { ...before };
      delete next[key];
      return next;
    });
    setErrors((before) => {
      const next = { ...before };
      delete next[key];
      return next;
    });
  };

  // The virtual rows, inside the course's own scrolling pane.
  const body = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const element = body.current;
    const scroller = props.scrollElement.current;
    if (!element || !scroller) return;
    const top =
      element.getBoundingClientRect().top -
      scroller.getBoundingClientRect().top +
      scroller.scrollTop;
    if (Math.abs(top - margin) > 1) setMargin(top);
  });
  const virtualizer = useVirtualizer({
    count: rows.shown.length,
    getScrollElement: () => props.scrollElement.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 6,
    scrollMargin: margin,
    getItemKey: (index) => rows.shown[index]?.id ?? index,
  });

  const activeIndex = Math.max(
    0,
    rows.shown.findIndex((row) => row.id === activeId),
  );

  /** Focuses the row at index in the list as it is now (after a cancellation moved one away). */
  const focusRow = (index: number) => {
    const shown = rowsNow.current.shown;
    const at = Math.max(0, Math.min(shown.length - 1, index));
    const row = shown[at];
    if (!row) return;
    setActiveId(row.id);
    focusRequest.current = row.id;
    virtualizer.scrollToIndex(at, { align: 'auto' });
    giveFocus();
  };

  function giveFocus() {
    const id = focusRequest.current;
    if (id === null) return;
    const element = body.current?.querySelector<HTMLElement>(
      `[data-participation-id="${CSS.escape(id)}"]`,
    );
    if (element) {
      focusRequest.current = null;
      element.focus({ preventScroll: true });
    }
  }
  useEffect(giveFocus);

  // Ctrl+N, Alt+N or "+": a walk-in.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || dialogOpen()) return;
      const plus = event.key === '+' && !isTyping(event.target) && !event.ctrlKey && !event.altKey;
      const chord =
        (event.key === 'n' || event.key === 'N') &&
        ((event.ctrlKey && !event.altKey) || (event.altKey && !event.ctrlKey));
      if (!plus && !chord) return;
      event.preventDefault();
      if (canAddRef.current) setAdding(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const onRowKey = (
    event: KeyboardEvent<HTMLDivElement>,
    row: ParticipationItem,
    index: number,
  ) => {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey)
      return;
    const perPage = Math.max(
      1,
      Math.floor((props.scrollElement.current?.clientHeight ?? 600) / ROW_ESTIMATE) - 1,
    );
    const state = attendanceOf(row);
    const live = row.status !== 'cancelled';
    const next = () => focusRow(index + 1);
    switch (event.key) {
      case 'ArrowDown':
        focusRow(index + 1);
        break;
      case 'ArrowUp':
        focusRow(index - 1);
        break;
      case 'PageDown':
        focusRow(index + perPage);
        break;
      case 'PageUp':
        focusRow(index - perPage);
        break;
      case 'Home':
        focusRow(0);
        break;
      case 'End':
        focusRow(rows.shown.length - 1);
        break;
      case ' ':
        if (!live) return;
        setAttendance(row, state === 'present' ? 'open' : 'present');
        next();
        break;
      case 'a':
      case 'A':
        if (!live) return;
        setAttendance(row, 'present');
        next();
        break;
      case 'x':
      case 'X':
      case 'n':
      case 'N':
        if (!live) return;
        setAttendance(row, state === 'absent' ? 'open' : 'absent');
        next();
        break;
      case 'o':
      case 'O':
        if (!live) return;
        setAttendance(row, 'open');
        break;
      case 'b':
      case 'B':
        if (!live) return;
        void update(row, { paid: row.attributes.paid !== true });
        break;
      case 'Enter':
        event.currentTarget.querySelector<HTMLInputElement>('input[data-field]')?.focus();
        break;
      case 'Delete':
        if (!live) return;
        setCancelling(row);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const total = rows.live.length;
  const max = props.course.maxParticipants;
  const closedReason =
    props.course.status === 'completed' || props.course.status === 'cancelled'
      ? t(`courses.participants.closed_${props.course.status}`)
      : max !== null && max > 0 && total >= max
        ? t('courses.participants.full', { n: total, max })
        : null;
  const canAdd = closedReason === null;
  const canAddRef = useRef(canAdd);
  canAddRef.current = canAdd;

  return (
    <section className="participants" aria-labelledby="participants-title">
      <div className="participants-head">
        <h3 id="participants-title">
          {t('courses.participants.title')}{' '}
          <span className="muted participants-count" data-testid="participants-count">
            {max !== null
              ? t('courses.participants.countMax', { n: total, max })
              : t('courses.participants.count', { n: total })}
          </span>
        </h3>
        <p className="attendance-summary" data-testid="attendance-summary" aria-live="polite">
          <span className="sum-present">
            {t('courses.participants.present', { count: counts.present })}
          </span>
          <span className="sum-absent">
            {t('courses.participants.absent', { count: counts.absent })}
          </span>
          <span className="sum-open">{t('courses.participants.open', { count: counts.open })}</span>
        </p>
        <div className="participants-actions">
          <button
            type="button"
            onClick={() => void allPresent()}
            disabled={counts.open === 0 || bulkBusy}
            data-testid="all-present"
            data-count={counts.open}
          >
            {t('courses.participants.allPresent', { count: counts.open })}
          </button>
          {lastBulk && lastBulk.length > 0 ? (
            <button
              type="button"
              className="secondary"
              onClick={() => void undoBulk()}
              disabled={bulkBusy}
              data-testid="all-present-undo"
            >
              {t('courses.participants.undoAll', { count: lastBulk.length })}
            </button>
          ) : null}
          <button
            type="button"
            className="secondary"
            onClick={() => setAdding(true)}
            disabled={!canAdd}
            aria-keyshortcuts="Control+N Alt+N +"
            aria-describedby={closedReason ? 'add-closed-reason' : undefined}
            title={t('courses.participants.addTitle')}
            data-testid="add-participant"
          >
            + {t('courses.participants.add')}
          </button>
          {closedReason ? (
            <span
              id="add-closed-reason"
              className="muted closed-reason"
              data-testid="add-closed-reason"
            >
              {closedReason}
            </span>
          ) : null}
          {rows.cancelled.length > 0 ? (
            <label className="check show-cancelled">
              <input
                type="checkbox"
                checked={showCancelled}
                onChange={(event) => setShowCancelled(event.target.checked)}
                data-testid="show-cancelled"
              />
              {t('courses.participants.showCancelled', { count: rows.cancelled.length })}
            </label>
          ) : null}
        </div>
      </div>
      {props.query.error && !all ? (
        <p className="form-error" role="alert">
          {errorText(props.query.error, language)}
        </p>
      ) : null}
      {all && all.length === 0 ? (
        <div className="empty-state small" data-testid="participants-empty">
          <p>{t('courses.participants.none')}</p>
        </div>
      ) : null}
      {rows.shown.length > 0 ? (
        <div
          className="participant-grid"
          role="grid"
          aria-labelledby="participants-title"
          aria-rowcount={rows.shown.length + 1}
          aria-describedby="participants-keys"
          data-testid="participant-grid"
        >
          <div className="p-row p-header" role="row" aria-rowindex={1}>
            <span role="columnheader" className="p-name">
              {t('courses.participants.colName')}
            </span>
            <span role="columnheader" className="p-att">
              {t('courses.participants.colAttendance')}
            </span>
            <span role="columnheader" className="p-paid">
              {t('courses.participants.colPaid')}
            </span>
            <span role="columnheader" className="p-cert">
              {t('courses.participants.colCertificate')}
            </span>
            <span role="columnheader" className="p-note">
              {t('courses.participants.colComment')}
            </span>
            <span role="columnheader" className="p-act">
              <span className="visually-hidden">{t('courses.participants.colActions')}</span>
            </span>
          </div>
          <div
            className="p-body"
            ref={body}
            role="rowgroup"
            style={{ height: virtualizer.getTotalSize() }}
          >
            {virtualizer.getVirtualItems().map((virtual) => {
              const row = rows.shown[virtual.index];
              if (!row) return null;
              return (
                <ParticipantRow
                  key={row.id}
                  row={row}
                  index={virtual.index}
                  top={virtual.start - margin}
                  measure={virtualizer.measureElement}
                  active={virtual.index === activeIndex}
                  drafts={drafts}
                  errors={errors}
                  onFocusRow={() => setActiveId(row.id)}
                  onKeyDown={(event) => onRowKey(event, row, virtual.index)}
                  onAttendance={(next) => setAttendance(row, next)}
                  onPaid={(paid) => void update(row, { paid })}
                  onDraft={(field, value) =>
                    setDrafts((before) => ({ ...before, [`${row.id}|${field}`]: value }))
                  }
                  onCommit={(field) => void commitText(row, field)}
                  onRevert={(field) => {
                    revertText(row, field);
                    focusRow(virtual.index);
                  }}
                  onCancel={() => setCancelling(row)}
                />
              );
            })}
          </div>
        </div>
      ) : null}
      <p id="participants-keys" className="keys-hint muted">
        {t('courses.participants.keys')}
      </p>
      <CancelDialog
        courseId={courseId}
        row={cancelling}
        onDone={(cancelled) => {
          const index = cancelling ? rows.shown.indexOf(cancelling) : -1;
          setCancelling(null);
          if (!cancelled || index < 0) return;
          // The cancelled row moves to the end: the focus goes on to the next person.
          const next = rows.shown[index + 1] ?? rows.shown[index - 1];
          if (!next) return;
          setActiveId(next.id);
          focusRequest.current = next.id;
        }}
      />
      <AddParticipantDialog
        open={adding}
        courseId={courseId}
        onClose={(createdId) => {
          setAdding(false);
          if (createdId) {
            setActiveId(createdId);
            focusRequest.current = createdId;
          }
        }}
      />
    </section>
  );
}

function ParticipantRow(props: {
  row: ParticipationItem;
  index: number;
  top: number;
  measure(element: Element | null): void;
  active: boolean;
  drafts: Record<string, string>;
  errors: Record<string, string>;
  onFocusRow(): void;
  onKeyDown(event: KeyboardEvent<HTMLDivElement>): void;
  onAttendance(next: Attendance): void;
  onPaid(paid: boolean): void;
  onDraft(field: EditField, value: string): void;
  onCommit(field: EditField): void;
  onRevert(field: EditField): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const { row } = props;
  const state = attendanceOf(row);
  const cancelled = row.status === 'cancelled';
  const name =
    [row.lastName, row.firstName].filter(Boolean).join(', ') || t('courses.participants.noName');
  const meta = [row.company, row.uvt].filter(Boolean).join(' · ');
  const rowError = props.errors[`${row.id}|row`];
  const input = (field: EditField, label: string) => {
    const key = `${row.id}|${field}`;
    const value = props.drafts[key] ?? str(row.attributes[field]);
    // A cancelled participation is final: its values are shown, not edited.
    if (cancelled) return value ? <span className="p-value">{value}</span> : null;
    return (
      <Field label={label} hideLabel error={props.errors[key]} className="p-input">
        {(control) => (
          <input
            {...control}
            type="text"
            value={value}
            placeholder={label}
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
        <span className="p-fullname" data-testid="participant-name">
          {name}
        </span>
        {cancelled ? (
          <span className="badge badge-cancelled">{t('courses.participants.cancelled')}</span>
        ) : null}
        <NotSent state={row.localState} />
        {meta ? <span className="p-meta">{meta}</span> : null}
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
      <div role="gridcell" className="p-cert">
        {input('certificate_number', t('courses.participants.colCertificate'))}
      </div>
      <div role="gridcell" className="p-note">
        {input('comment', t('courses.participants.colComment'))}
      </div>
      <div role="gridcell" className="p-act">
        {cancelled ? null : (
          <button
            type="button"
            className="quiet danger-text"
            onClick={props.onCancel}
            aria-keyshortcuts="Delete"
            title={t('courses.participants.cancelTitle')}
            data-testid="cancel-participation"
          >
            {t('courses.participants.cancel')}
            <span className="visually-hidden">: {name}</span>
          </button>
        )}
      </div>
    </div>
  );
}

/** "Teilnahme absagen?" with an optional reason; participation.cancel. */
function CancelDialog(props: {
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
