// The participants of a course at the venue, made for speed: attendance with one key or click
// per person (the row moves on by itself), "Alle anwesend" for the rest (undo-able), paid,
// certificate number and comment in a row's details, a cancellation with a confirmation, and a
// walk-in added in a dialog. Every change goes through the outbox (offline the same), shows at
// once and is marked "nicht gesendet" until the service has it. The state is useAttendance's;
// here the grid: its virtual rows, the keyboard and where the focus goes.
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { CourseDetail, ParticipationItem, QueryResults } from '../../contract';
import type { QueryState } from '../../data';
import { errorText } from '../../errors';
import { isNewChord, newShortcut } from '../../shortcuts';
import { AddParticipantDialog } from './AddParticipantDialog';
import { CancelDialog } from './CancelDialog';
import { dialogOpen, isTyping } from '../../keyboard';
import { serviceDay } from '../../format';
import { attendanceOf, runsOn } from './logic';
import { ParticipantRow } from './ParticipantRow';
import { fieldKey, useAttendance, type EditField } from './useAttendance';

const ROW_ESTIMATE = 46;

/** Where the focus goes once its row is in the page: the row, or one of its fields. */
interface FocusRequest {
  id: string;
  field?: EditField;
  /** The virtual list has been asked to bring the row into view. */
  scrolled: boolean;
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
  const [showCancelled, setShowCancelled] = useState(true);
  const attendance = useAttendance({ courseId, query: props.query, showCancelled, language });
  const { rows, counts, drafts, errors, lastBulk, bulkBusy } = attendance;
  const [activeId, setActiveId] = useState<string | null>(null);
  /** The rows whose details are open. */
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const focusRequest = useRef<FocusRequest | null>(null);
  const [adding, setAdding] = useState(false);
  const [cancelling, setCancelling] = useState<ParticipationItem | null>(null);

  const rowsNow = useRef(rows);
  rowsNow.current = rows;

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

  const showDetails = (id: string, open: boolean) =>
    setExpanded((before) => {
      if (before.has(id) === open) return before;
      const next = new Set(before);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });

  /**
   * The row (or its field) gets the focus once it is in the list and in the page, in view: after
   * this render (a dialog closing gives the focus back first), or at once (`now`).
   */
  const requestFocus = (id: string, options: { field?: EditField; now?: boolean } = {}) => {
    setActiveId(id);
    focusRequest.current = {
      id,
      scrolled: false,
      ...(options.field ? { field: options.field } : {}),
    };
    // The row may be in the page already (no new render would come to focus it).
    if (options.now) giveFocus();
  };

  /** Focuses the row at index in the list as it is now (after a cancellation moved one away). */
  const focusRow = (index: number) => {
    const shown = rowsNow.current.shown;
    const row = shown[Math.max(0, Math.min(shown.length - 1, index))];
    if (row) requestFocus(row.id, { now: true });
  };

  function giveFocus() {
    const request = focusRequest.current;
    if (request === null) return;
    // A walk-in's row comes with the next read of the list; until then there is nothing to do.
    const index = rowsNow.current.shown.findIndex((row) => row.id === request.id);
    if (index < 0) return;
    if (!request.scrolled) {
      request.scrolled = true;
      virtualizer.scrollToIndex(index, { align: 'auto' });
    }
    const row = body.current?.querySelector<HTMLElement>(
      `[data-participation-id="${CSS.escape(request.id)}"]`,
    );
    const target = request.field
      ? row?.querySelector<HTMLElement>(`input[data-field="${request.field}"]`)
      : row;
    if (target) {
      focusRequest.current = null;
      target.focus({ preventScroll: true });
    }
  }
  useEffect(giveFocus);

  // Ctrl+N (the desktop app), Alt+N or "+": a walk-in.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || dialogOpen()) return;
      const plus = event.key === '+' && !isTyping(event.target) && !event.ctrlKey && !event.altKey;
      if (!plus && !isNewChord(event)) return;
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
    open: boolean,
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
        attendance.setAttendance(row, state === 'present' ? 'open' : 'present');
        next();
        break;
      case 'a':
      case 'A':
        if (!live) return;
        attendance.setAttendance(row, 'present');
        next();
        break;
      case 'x':
      case 'X':
      case 'n':
      case 'N':
        if (!live) return;
        attendance.setAttendance(row, state === 'absent' ? 'open' : 'absent');
        next();
        break;
      case 'o':
      case 'O':
        if (!live) return;
        attendance.setAttendance(row, 'open');
        break;
      case 'b':
      case 'B':
        if (!live) return;
        void attendance.update(row, { paid: row.attributes.paid !== true });
        break;
      case 'Enter':
        // The details, at the certificate number (a cancelled row's are only to read).
        showDetails(row.id, true);
        if (live) requestFocus(row.id, { field: 'certificate_number' });
        break;
      case 'Escape':
        // Closes the details first; with them closed, Escape is the workspace's (back).
        if (!open) return;
        showDetails(row.id, false);
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
  const shortcut = newShortcut(t);

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
            onClick={() => void attendance.allPresent()}
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
              onClick={() => void attendance.undoBulk()}
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
            aria-keyshortcuts={`${shortcut.aria} +`}
            aria-describedby={closedReason ? 'add-closed-reason' : undefined}
            title={t('courses.participants.addTitle', { keys: shortcut.words })}
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
          <p>{t('courses.participants.none', { keys: shortcut.words })}</p>
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
            <span role="columnheader" className="p-more">
              <span className="visually-hidden">{t('courses.participants.colDetails')}</span>
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
              // A field with a text not yet stored (or refused) stays in view.
              const open =
                expanded.has(row.id) ||
                (['certificate_number', 'comment'] as const).some(
                  (field) =>
                    drafts[fieldKey(row.id, field)] !== undefined ||
                    errors[fieldKey(row.id, field)] !== undefined,
                );
              return (
                <ParticipantRow
                  key={row.id}
                  courseId={courseId}
                  row={row}
                  index={virtual.index}
                  top={virtual.start - margin}
                  measure={virtualizer.measureElement}
                  active={virtual.index === activeIndex}
                  open={open}
                  drafts={drafts}
                  errors={errors}
                  onFocusRow={() => setActiveId(row.id)}
                  onKeyDown={(event) => onRowKey(event, row, virtual.index, open)}
                  onAttendance={(next) => attendance.setAttendance(row, next)}
                  onPaid={(paid) => void attendance.update(row, { paid })}
                  onToggleDetails={() => showDetails(row.id, !open)}
                  onDraft={(field, value) => attendance.setDraft(row, field, value)}
                  onCommit={(field) => void attendance.commitText(row, field)}
                  onRevert={(field) => {
                    attendance.revertText(row, field);
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
        {t('courses.participants.keys', { keys: shortcut.words })}
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
          if (next) requestFocus(next.id);
        }}
      />
      <AddParticipantDialog
        open={adding}
        courseId={courseId}
        presentByDefault={runsOn(props.course, serviceDay())}
        onClose={(createdId) => {
          setAdding(false);
          // The walk-in's row, wherever the list sorts it, in view and focused.
          if (createdId) requestFocus(createdId);
        }}
      />
    </section>
  );
}
