// The course list: one row per course date, grouped by day, virtualized (only the rows in view
// are in the page) and read page by page as it scrolls. A listbox with a roving active row:
// Up/Down, PageUp/PageDown, Home/End move, Enter opens, T jumps to today. On a new filter it
// shows today's courses first (the row courses.days names as the anchor).
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { CourseDayItem } from '../../contract';
import { formatDay, formatTime, serviceDay } from '../../format';
import type { CourseDays } from './useCourseDays';
import { NotSent, StatusBadge } from './bits';

export interface CourseListHandle {
  /** Focuses the active row (scrolling to it). */
  focus(): void;
  /** Makes the row of this date active and focuses it (after the detail closes). */
  focusDate(dateId: string): void;
  /** Scrolls to today's first row. */
  today(): void;
}

const ROW_ESTIMATE = 66;
const HEADING_ESTIMATE = 36;

export function CourseList(props: {
  days: CourseDays;
  openDateId: string | null;
  openCourseId: string | null;
  /** Enter on a row: the course opens and the focus goes to it. */
  onOpen(item: CourseDayItem): void;
  /** A click: the course opens, the focus stays in the list. */
  onClick(item: CourseDayItem): void;
  /** Shown instead of rows when the filter has none. */
  empty: ReactNode;
  handle?: Ref<CourseListHandle>;
  labelledBy: string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { days } = props;
  const total = days.total ?? 0;
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const focusRequest = useRef<number | null>(null);
  const today = serviceDay();

  const startsDay = (index: number): boolean => {
    const item = days.item(index);
    if (!item) return false;
    const before = days.previous(index);
    if (before === null) return true;
    if (before === undefined) return false;
    return dayOf(before) !== dayOf(item);
  };

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => ROW_ESTIMATE + (startsDay(index) ? HEADING_ESTIMATE : 0),
    overscan: 8,
    getItemKey: (index) => days.item(index)?.dateId ?? `row-${index}`,
  });

  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const { want } = days;
  useEffect(() => {
    if (total > 0) want(first, last);
  }, [first, last, total, want]);

  const moveTo = (index: number, focus = true) => {
    if (total === 0) return;
    const next = Math.max(0, Math.min(total - 1, index));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
    if (!focus) return;
    focusRequest.current = next;
    // The row may be in the page already (no new render would come to focus it).
    giveFocus();
  };

  // A new filter's rows: today's first (or the last row when all are past).
  // Once per generation with rows (the first sync may bring them after the filter's answer);
  // a reload of the same filter keeps the place.
  const { generation, anchorIndex } = days;
  const scrolledFor = useRef(0);
  useEffect(() => {
    if (generation === 0 || total === 0 || scrolledFor.current === generation) return;
    scrolledFor.current = generation;
    const index = Math.min(anchorIndex, total - 1);
    setActive(index);
    virtualizer.scrollToIndex(index, { align: 'start' });
    // The list itself had the focus while it had no rows (Alt+1 before they came): today's row
    // takes it, so the keys of a row (T, Enter) work on what the person sees.
    if (document.activeElement === scroller.current) focusRequest.current = index;
  }, [generation, total, anchorIndex, virtualizer]);

  // Keeps the active row inside the list when it shrinks.
  useEffect(() => {
    if (total > 0 && active > total - 1) setActive(total - 1);
  }, [total, active]);

  // A focus asked for before its row was in the page: given once it is.
  function giveFocus() {
    const index = focusRequest.current;
    if (index === null) return;
    const row = scroller.current?.querySelector<HTMLElement>(`[data-option-index="${index}"]`);
    if (row) {
      focusRequest.current = null;
      row.focus({ preventScroll: true });
    }
  }
  useEffect(giveFocus);

  useImperativeHandle(props.handle, () => ({
    focus: () => moveTo(active),
    focusDate: (dateId) => {
      for (const virtual of virtualizer.getVirtualItems()) {
        if (days.item(virtual.index)?.dateId === dateId) return moveTo(virtual.index);
      }
      moveTo(active);
    },
    today: () => moveTo(Math.min(days.anchorIndex, total - 1)),
  }));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.metaKey) return;
    const perPage = Math.max(
      1,
      Math.floor((scroller.current?.clientHeight ?? 600) / ROW_ESTIMATE) - 1,
    );
    let next: number | null = null;
    switch (event.key) {
      case 'ArrowDown':
        next = active + 1;
        break;
      case 'ArrowUp':
        next = active - 1;
        break;
      case 'PageDown':
        next = active + perPage;
        break;
      case 'PageUp':
        next = active - perPage;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = total - 1;
        break;
      case 't':
      case 'T':
        if (event.ctrlKey) return;
        next = Math.min(days.anchorIndex, total - 1);
        break;
      case 'Enter':
      case ' ': {
        const item = days.item(active);
        if (item) {
          event.preventDefault();
          props.onOpen(item);
        }
        return;
      }
      default:
        return;
    }
    event.preventDefault();
    moveTo(next);
  };

  const activeRendered = items.some((virtual) => virtual.index === active);

  // No rows: the words instead of the list (a listbox holds options only).
  if (total === 0 && days.total !== null)
    return (
      <div
        className="course-list course-list-empty"
        data-testid="course-list"
        data-total={0}
        data-search={days.shownSearch ?? undefined}
      >
        {props.empty}
      </div>
    );

  return (
    <div
      className="course-list"
      ref={scroller}
      role="listbox"
      aria-labelledby={props.labelledBy}
      aria-busy={days.loading || undefined}
      data-testid="course-list"
      data-total={days.total ?? undefined}
      data-search={days.shownSearch ?? undefined}
      data-workspace-start
      // With the active row out of the page, the list itself takes the Tab and hands it on.
      tabIndex={activeRendered ? -1 : 0}
      onFocus={(event) => {
        if (event.target === event.currentTarget && total > 0) moveTo(active);
      }}
      onKeyDown={onKeyDown}
    >
      <div className="course-list-inner" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((virtual) => {
          const item = days.item(virtual.index);
          const heading = item && startsDay(virtual.index);
          return (
            <div
              key={virtual.key}
              ref={virtualizer.measureElement}
              data-index={virtual.index}
              className="course-list-slot"
              style={{ transform: `translateY(${virtual.start}px)` }}
            >
              {heading ? (
                <div
                  className={
                    dayOf(item) === today ? 'course-day-heading today' : 'course-day-heading'
                  }
                  aria-hidden="true"
                  data-testid="course-day-heading"
                >
                  <span>{formatDay(dayOf(item), language)}</span>
                  {dayOf(item) === today ? (
                    <span className="today-tag">{t('courses.list.today')}</span>
                  ) : null}
                </div>
              ) : null}
              {item ? (
                <CourseRow
                  item={item}
                  index={virtual.index}
                  total={total}
                  active={virtual.index === active}
                  open={item.dateId === props.openDateId}
                  sameCourse={item.courseId === props.openCourseId}
                  onClick={() => {
                    setActive(virtual.index);
                    props.onClick(item);
                  }}
                />
              ) : (
                <div className="course-row placeholder" aria-hidden="true">
                  <span className="skeleton" />
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function dayOf(item: CourseDayItem): string {
  return item.from ? serviceDay(item.from) : (item.firstDate?.slice(0, 10) ?? '');
}

function CourseRow(props: {
  item: CourseDayItem;
  index: number;
  total: number;
  active: boolean;
  open: boolean;
  sameCourse: boolean;
  onClick(): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { item } = props;
  const time =
    item.from && item.to
      ? `${formatTime(item.from, language)}–${formatTime(item.to, language)}`
      : item.from
        ? formatTime(item.from, language)
        : '—';
  const meta = [item.courseNumber, item.courseType, item.client, item.city].filter(Boolean);
  const full = item.maxParticipants !== null && item.participants >= item.maxParticipants;
  const classes = ['course-row'];
  if (props.active) classes.push('active');
  if (props.open) classes.push('open');
  else if (props.sameCourse) classes.push('same-course');
  if (item.status === 'cancelled') classes.push('cancelled');
  return (
    <div
      role="option"
      id={`course-option-${props.index}`}
      className={classes.join(' ')}
      aria-selected={props.open}
      aria-posinset={props.index + 1}
      aria-setsize={props.total}
      tabIndex={props.active ? 0 : -1}
      data-option-index={props.index}
      data-testid="course-row"
      data-course-id={item.courseId}
      data-date-id={item.dateId}
      onClick={props.onClick}
    >
      <span className="visually-hidden">{item.from ? formatDay(item.from, language) : ''}, </span>
      <span className="course-time">
        {time}
        {item.dayCount > 1 ? (
          <span className="course-daynum" data-testid="course-day-number">
            {t('courses.list.dayOf', { n: item.dayNumber, m: item.dayCount })}
          </span>
        ) : null}
      </span>
      <span className="course-main">
        <span className="course-title">{item.title || t('courses.untitled')}</span>
        <span className="course-meta">{meta.join(' · ')}</span>
      </span>
      <span className="course-side">
        <span
          className={full ? 'course-count full' : 'course-count'}
          title={t('courses.list.participantsTitle')}
        >
          <span className="visually-hidden">{t('courses.list.participantsTitle')}: </span>
          {item.maxParticipants !== null
            ? `${item.participants}/${item.maxParticipants}`
            : item.participants}
        </span>
        <span className="course-badges">
          <StatusBadge status={item.status} />
          {item.localState ? <NotSent state={item.localState} /> : null}
        </span>
      </span>
    </div>
  );
}
